/**
 * The vocabulary of refusals: every code a function or route may answer with. Functions throw
 * `ConvexError({code, message, ...details})` through `fail`; the HTTP routes map codes to statuses
 * (httpRoutes/transport.ts) and the web app shows `message`, or words its own by `code`.
 */
import { ConvexError, type Value } from "convex/values";
import type * as z from "zod/mini";

export const ERROR_CODES = [
  // who may call
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "INVALID_CREDENTIALS",
  "AUTH_FAILED",
  "SIGN_UP_REFUSED",
  "UNSUPPORTED_FLOW",
  "LAST_ADMIN",
  // what was sent
  "INVALID_INPUT",
  "INVALID_JSON",
  "INVALID_FORM",
  "INVALID_PATH",
  "BAD_REQUEST",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "EMAIL_TAKEN",
  "PHONE_TAKEN",
  "USERNAME_TAKEN",
  // files
  "FILE_NOT_IMAGE",
  "FILE_TOO_LARGE",
  "FILE_NOT_FOUND",
  "FILE_NOT_YOURS",
  "FILE_IN_USE",
  "UPLOAD_URL_INVALID",
  "UPLOAD_QUOTA_FULL",
  // limits
  "RATE_LIMITED",
  "TOO_MANY_ATTEMPTS",
  "INVALID_CODE",
  "CONTACT_VERIFIED",
  "NO_CONTACT",
  "PHONE_NOT_VERIFIED",
  "TWO_FACTOR_REQUIRED",
  "TWO_FACTOR_ALREADY_ON",
  "TWO_FACTOR_NOT_ON",
  "TWO_FACTOR_SETUP_EXPIRED",
  "TWO_FACTOR_SETUP_REQUIRED",
  "INVALID_SETUP_LINK",
  "WRONG_PASSWORD",
  "TOO_MANY_OPEN_REQUESTS",
  "DRAFT_NOT_FOUND",
  "DRAFT_USED_UP",
  "STAMP_INVALID",
  "STAMP_USED",
  "STAMP_EXPIRED",
  // bookings and reviews
  "ILLEGAL_TRANSITION",
  "INVALID_ADDRESS",
  "NOTE_TOO_LONG",
  "REASON_REQUIRED",
  "REASON_TOO_LONG",
  "SLOT_IN_PAST",
  "SLOT_TOO_FAR",
  "NO_SERVICES",
  "TOO_MANY_SERVICES",
  "SERVICE_NOT_OFFERED",
  "SERVICE_UNAVAILABLE",
  "OUT_OF_AREA",
  "PROFESSIONAL_UNAVAILABLE",
  "PROFESSIONAL_UNVERIFIED",
  "BOOKINGS_UNDER_WAY",
  "INVALID_RATING",
  "COMMENT_TOO_LONG",
  "ALREADY_REVIEWED",
  "NOT_COMPLETED",
  "NOT_CONFIRMED",
  "OUTSIDE_WORKING_HOURS",
  "SLOT_TAKEN",
  "BOOKING_CLASH",
  "TOO_EARLY",
  "START_CODE_SPENT",
  "START_CODE_ACTIVE",
  "NO_SHOW_TOO_EARLY",
  "PROFESSIONAL_ON_HOLD",
  "RESCHEDULE_CLOSED",
  "RESCHEDULE_PENDING",
  "RESCHEDULE_LIMIT",
  "RESCHEDULE_LAPSED",
  "ALREADY_REPLIED",
  "ACCOUNT_SUSPENDED",
  // moderation
  "REPORT_OPEN",
  "CANNOT_SUSPEND_SELF",
  // professionals and positions
  "ALREADY_VERIFIED",
  "INVALID_LOCATION",
  // push alerts
  "DEVICE_TAKEN",
  // conversations
  "MESSAGE_TOO_LONG",
  "TOO_MANY_PHOTOS",
  "CHAT_CLOSED",
  "CHAT_BLOCKED",
  "PIN_OUTSIDE_NEPAL",
  // money
  "INVALID_AMOUNT",
  "OVER_BALANCE",
  "BALANCE_CHANGED",
  "OVER_OWED",
  "REFERENCE_USED",
  "WRONG_AMOUNT",
  "NOT_PAYABLE",
  "ALREADY_PAID",
  "BILL_PENDING",
  "BILL_CLOSED",
  "ALREADY_DECIDED",
  "CASH_DISPUTE_OPEN",
  "TOO_MANY_LINES",
  "PAYMENTS_UNAVAILABLE",
  "OFFER_TAKEN",
  "OFFER_CLOSED",
  "CANCEL_FEE",
  "NOT_CANCELLED",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type Refusal = { code: ErrorCode; message: string } & Record<string, Value>;

/** The error a refused call throws: a code, a readable message and any details the client may use. */
export function refusal(
  code: ErrorCode,
  message: string,
  details: Record<string, Value> = {},
): ConvexError<Refusal> {
  return new ConvexError({ ...details, code, message });
}

export function fail(code: ErrorCode, message: string, details?: Record<string, Value>): never {
  throw refusal(code, message, details);
}

export function notFound(message: string): never {
  fail("NOT_FOUND", message);
}

export function forbid(message = "You are not allowed to do this."): never {
  fail("FORBIDDEN", message);
}

/** The message of a failed zod parse that a refusal shows: its first issue's. */
export function firstIssue(error: z.core.$ZodError): string {
  return error.issues[0]?.message ?? "Please check the form.";
}
