import { v, type Infer } from "convex/values";
import { CITIES, LOCALES, SPECIALTIES, USER_FILTERS } from "./constants";
import { BOOKING_STATUSES, type BookingStatus } from "./rules/bookingLifecycle";
import { CHOSEN_CATEGORIES, REPORT_CATEGORIES, REPORT_STATUSES } from "./rules/moderation";
import { QUICK_REPLIES } from "./rules/chat";
import { LINE_KINDS, LINE_STATUSES, SITE_LINE_KINDS } from "./rules/bill";
import {
  ACCOUNTS,
  CASH_STATES,
  DISPUTE_OUTCOMES,
  PAYMENT_METHODS,
  PAYOUT_METHODS,
  TX_KINDS,
} from "./rules/ledger";
import { REFUND_STATES } from "./rules/refunds";
import { ATTEMPT_PROBLEMS, ATTEMPT_STATES, WALLET_METHODS } from "./rules/wallets";
import { OFFER_STATUSES, REQUEST_STATUSES } from "./rules/dispatch";
import { RESCHEDULE_STATUSES } from "./rules/reschedule";

// The plain values live in ./constants so the web app can import them without convex/values; the
// backend's modules keep reading them from here.
export {
  CITIES,
  LANDING_SERVICES,
  SPECIALTIES,
  type CitySlug,
  type SpecialtySlug,
} from "./constants";

/** Roles a user can hold. "admin" is never reachable through sign-up. */
export const role = v.union(v.literal("customer"), v.literal("professional"), v.literal("admin"));
export type Role = Infer<typeof role>;

export const userFilter = v.union(...USER_FILTERS.map((f) => v.literal(f)));
export type UserFilter = Infer<typeof userFilter>;

/** An interface language of constants.ts LOCALES. */
export const locale = v.union(...LOCALES.map((l) => v.literal(l)));

export const verificationStatus = v.union(
  v.literal("unverified"),
  v.literal("verified"),
  v.literal("rejected"),
);
export type VerificationStatus = Infer<typeof verificationStatus>;

export const bookingStatus = v.union(...BOOKING_STATUSES.map((s) => v.literal(s)));
export type { BookingStatus };

export const rescheduleStatus = v.union(...RESCHEDULE_STATUSES.map((s) => v.literal(s)));

export const city = v.union(...CITIES.map((c) => v.literal(c.slug)));
export const specialty = v.union(...SPECIALTIES.map((s) => v.literal(s.slug)));

/** A stored place: the spec's technician `location` entries and booking addresses. */
export const place = v.object({
  city,
  state: v.string(),
  address: v.string(),
  zipCode: v.string(),
});
export type Place = Infer<typeof place>;

/** A map pin (rules/pin.ts checks it lies in Nepal). */
export const pin = v.object({ lat: v.number(), lng: v.number() });

/** A professional's working hours (rules/schedule.ts workingHoursRule checks the values). */
export const workingHours = v.object({
  days: v.array(v.number()),
  start: v.number(),
  end: v.number(),
});

/** One of rules/chat.ts QUICK_REPLIES, shown in the reader's language. */
export const quickReply = v.union(...QUICK_REPLIES.map((q) => v.literal(q)));

export const reportCategory = v.union(...REPORT_CATEGORIES.map((c) => v.literal(c)));
/** What a reporter may pick: a cash dispute is filed only by disputing recorded cash. */
export const chosenReportCategory = v.union(...CHOSEN_CATEGORIES.map((c) => v.literal(c)));
export const reportStatus = v.union(...REPORT_STATUSES.map((c) => v.literal(c)));

export const lineKind = v.union(...LINE_KINDS.map((k) => v.literal(k)));
export const siteLineKind = v.union(...SITE_LINE_KINDS.map((k) => v.literal(k)));
export const lineStatus = v.union(...LINE_STATUSES.map((s) => v.literal(s)));
export const ledgerAccount = v.union(...ACCOUNTS.map((a) => v.literal(a)));
export const txKind = v.union(...TX_KINDS.map((k) => v.literal(k)));
export const paymentMethod = v.union(...PAYMENT_METHODS.map((m) => v.literal(m)));
export const payoutMethod = v.union(...PAYOUT_METHODS.map((m) => v.literal(m)));

/** What every transfer between the platform and a professional is recorded with (model/transfers.ts). */
export const transferFields = {
  professionalId: v.id("professionals"),
  method: payoutMethod,
  reference: v.string(),
  amountPaisa: v.number(),
};
export const cashState = v.union(...CASH_STATES.map((s) => v.literal(s)));
export const refundState = v.union(...REFUND_STATES.map((s) => v.literal(s)));
export const disputeOutcome = v.union(...DISPUTE_OUTCOMES.map((o) => v.literal(o)));
export const walletMethod = v.union(...WALLET_METHODS.map((m) => v.literal(m)));
export const attemptState = v.union(...ATTEMPT_STATES.map((s) => v.literal(s)));
export const attemptProblem = v.union(...ATTEMPT_PROBLEMS.map((p) => v.literal(p)));
/** A "nearest available now" request's and offer's statuses (rules/dispatch.ts). */
export const dispatchRequestStatus = v.union(...REQUEST_STATUSES.map((s) => v.literal(s)));
export const dispatchOfferStatus = v.union(...OFFER_STATUSES.map((s) => v.literal(s)));

/** A service as a booking keeps it: its name, category and price in the booking's city when booked. */
export const bookedService = v.object({
  id: v.id("services"),
  name: v.string(),
  category: v.string(),
  price: v.number(),
});
