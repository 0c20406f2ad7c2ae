/**
 * Moderation as plain data: what a report may say, and how long the admin's reasons and notes are.
 * The server enforces these (model/reports.ts, model/suspension.ts) and the web app's forms show them
 * before submit.
 */

/** What a report is about; the reporter picks one and explains in their own words. */
export const REPORT_CATEGORIES = [
  "no_show",
  "poor_work",
  "overcharge",
  "rude",
  "safety",
  "false_review",
  /** Filed by the customer's "dispute" of the cash the professional recorded (model/cash.ts). */
  "cash_dispute",
  "other",
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
/** What a reporter picks in the report form: a cash dispute is filed from the bill. */
export const CHOSEN_CATEGORIES = REPORT_CATEGORIES.filter((c) => c !== "cash_dispute");
export type ChosenCategory = (typeof CHOSEN_CATEGORIES)[number];

/** A report is about a whole booking, the review written on it, or a message in its conversation. */
export const REPORT_TARGETS = ["booking", "review", "message"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_STATUSES = ["open", "resolved"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const MODERATION_FIELDS = {
  /** What the reporter writes. */
  reportText: { min: 10, max: 1000 },
  /** The admin's note when resolving a report (the reporter reads it). */
  resolutionNote: { min: 5, max: 1000 },
  /** Why an account is suspended or restored (kept in its history). */
  accountReason: { min: 5, max: 500 },
} as const;

/** Whether a trimmed text is too short or too long for its limits; undefined when it fits. */
export function lengthBreak(
  text: string,
  limits: { min: number; max: number },
): "REASON_REQUIRED" | "REASON_TOO_LONG" | undefined {
  const length = text.trim().length;
  if (length < limits.min) return "REASON_REQUIRED";
  if (length > limits.max) return "REASON_TOO_LONG";
  return undefined;
}

/** Too short or too long, as a readable sentence; undefined when the text fits. */
export function lengthProblem(
  text: string,
  limits: { min: number; max: number },
  what: string,
): { code: "REASON_REQUIRED" | "REASON_TOO_LONG"; message: string } | undefined {
  const code = lengthBreak(text, limits);
  if (code === undefined) return undefined;
  return {
    code,
    message:
      code === "REASON_REQUIRED"
        ? `Please write ${what} of at least ${limits.min} characters.`
        : `${what[0].toUpperCase()}${what.slice(1)} may be at most ${limits.max} characters.`,
  };
}
