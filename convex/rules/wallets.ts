/**
 * Wallet payments' shared rules: the methods, what state a payment attempt is in, which states are
 * settled, how often an unsettled one is checked again, and rupee amounts as eSewa writes them.
 * The server (model/wallets/) and the web app's pay buttons and return page import them.
 */

export const WALLET_METHODS = ["esewa", "khalti"] as const;
export type WalletMethod = (typeof WALLET_METHODS)[number];

/**
 * - opening: Khalti's initiate is under way; open: the customer is at the gateway;
 * - checking: a return arrived and the gateway is being asked; pending: the gateway says the payment
 *   is not settled yet (eSewa PENDING/AMBIGUOUS, Khalti Pending);
 * - paid, canceled, expired, refunded, failed: settled. `failed` carries a `problem`.
 */
export const ATTEMPT_STATES = [
  "opening",
  "open",
  "checking",
  "pending",
  "paid",
  "canceled",
  "expired",
  "refunded",
  "failed",
] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

export const SETTLED_STATES: readonly AttemptState[] = [
  "paid",
  "canceled",
  "expired",
  "refunded",
  "failed",
];
export const isSettled = (state: AttemptState) => SETTLED_STATES.includes(state);

/**
 * Why a return or a check did not pay, each shown with its own words and a retry:
 * - unverified: a return whose signature or fields do not match what was sent (forged or altered);
 * - amount_mismatch: the gateway confirmed another amount than the bill's;
 * - unreachable: the gateway did not answer after every re-check;
 * - refused: the gateway refused to open the payment (configuration, amount below its minimum);
 * - bill_changed: the gateway took the money but the bill is no longer that amount, or the booking
 *   was cancelled meanwhile (an admin refunds it);
 * - already_paid: the gateway took the money but the bill was paid meanwhile (another attempt, cash);
 * - unsettled: still pending when the re-checks ran out (the gateway's support settles it).
 */
export const ATTEMPT_PROBLEMS = [
  "already_paid",
  "unverified",
  "amount_mismatch",
  "unreachable",
  "refused",
  "bill_changed",
  "unsettled",
] as const;
export type AttemptProblem = (typeof ATTEMPT_PROBLEMS)[number];

/**
 * Delays between the scheduled re-checks of an unsettled attempt (a cron starts them each minute):
 * about 2 h 20 min in all, past Khalti's 60-minute and the stand-ins' 30-minute expiry, then the
 * attempt settles as expired or unsettled.
 */
export const RECHECK_DELAYS_MS = [
  60_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  20 * 60_000,
  40 * 60_000,
  60 * 60_000,
];

/** A payment attempt's references are at most this long (eSewa's transaction_uuid, Khalti's pidx). */
export const MAX_REFERENCE_LENGTH = 64;
/** eSewa's signed `data` on return, base64: its few fields fit well within this. */
export const MAX_ESEWA_DATA_LENGTH = 2048;

/** Paisa as eSewa's form takes rupees: "1500", "1500.5". */
export function rupeesText(paisa: number): string {
  const whole = Math.floor(paisa / 100);
  const rest = paisa % 100;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}

/**
 * Rupees as eSewa writes them ("1,500.0", 1500, "1500.50") in paisa; null for anything else (a
 * third decimal, a sign, an exponent, an empty string).
 */
export function paisaOf(rupees: unknown): number | null {
  const text = typeof rupees === "number" ? String(rupees) : rupees;
  if (typeof text !== "string") return null;
  const match = /^(\d{1,3}(?:,\d{2,3})*|\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) return null;
  const whole = Number(match[1]!.replace(/,/g, ""));
  const fraction = Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(whole * 100 + fraction) ? whole * 100 + fraction : null;
}
