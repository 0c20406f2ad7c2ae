/**
 * A booking's bill as pure rules: the kinds of line, who adds them, which count, and when the bill
 * may change or be paid. The server computes every total with `billTotal`; the web app shows the same.
 */
import type { BookingStatus } from "./bookingLifecycle";

/**
 * "service": a catalogue service at the booked city's price; "visit": the visit charge (an admin
 * setting); "part" and "extra": added by the professional on site; "quote": the price of a service
 * priced on inspection, sent from the site; "fee": the customer cancelled late
 * (rules/cancellation.ts).
 */
export const LINE_KINDS = ["service", "visit", "part", "extra", "quote", "fee"] as const;
export type LineKind = (typeof LINE_KINDS)[number];
/** What the professional may add on site. */
export const SITE_LINE_KINDS = ["part", "extra", "quote"] as const satisfies readonly LineKind[];
export type SiteLineKind = (typeof SITE_LINE_KINDS)[number];

/** A site line waits for the customer ("proposed") until they approve or decline it. */
export const LINE_STATUSES = ["proposed", "approved", "declined"] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

export const BILL_LIMITS = {
  label: { min: 2, max: 80 },
  reason: { min: 3, max: 300 },
  /** Lines a professional may add to one booking. */
  siteLines: 20,
} as const;

/** Site lines are added and decided while the job is under way. */
export const EDITABLE_STATUSES: readonly BookingStatus[] = ["in_progress"];
/** The customer pays once the job is under way (the bill is final) or done. */
export const PAYABLE_STATUSES: readonly BookingStatus[] = ["in_progress", "completed", "reviewed"];

export type BillLine = {
  kind: LineKind;
  label: string;
  amountPaisa: number;
  status: LineStatus;
  reason?: string;
};

/** A bill with a late-cancellation fee: the booking was cancelled and owes the fee alone. */
export function hasFee(lines: readonly { kind: LineKind }[]): boolean {
  return lines.some((l) => l.kind === "fee");
}

/** The bill's total: approved lines only; of a cancelled booking's bill, its fee only. */
export function billTotal(
  lines: readonly { kind: LineKind; amountPaisa: number; status: LineStatus }[],
): number {
  const counted = hasFee(lines) ? lines.filter((l) => l.kind === "fee") : lines;
  return counted.reduce((sum, l) => (l.status === "approved" ? sum + l.amountPaisa : sum), 0);
}

/** Whether a booking in `status` with these bill lines may be paid: a cancelled one for its fee. */
export function mayPay(status: BookingStatus, lines: readonly { kind: LineKind }[]): boolean {
  return PAYABLE_STATUSES.includes(status) || (status === "cancelled" && hasFee(lines));
}

/** Lines still waiting for the customer's answer. */
export function pendingLines<L extends { status: LineStatus }>(lines: readonly L[]): L[] {
  return lines.filter((l) => l.status === "proposed");
}
