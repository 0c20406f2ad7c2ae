/**
 * The ledger's vocabulary. Every movement of money is one transaction of immutable entries in
 * integer paisa, debits positive and credits negative, summing to zero. Balances are sums of entries.
 *
 * A paid job moves money like this (gross G, commission C):
 *   payment:  platform_funds +G (eSewa/Khalti) or professional_cash +G (cash), customer −G
 *   job done: customer +G, commission −C, professional_earning −(G−C)
 *   payout:   professional_earning +P, platform_funds −P (the platform pays the professional)
 *   settling: platform_funds +S, professional_cash −S (the professional hands over cash owed)
 * So what the platform owes a professional is −(earning + cash held): positive when due to them,
 * negative when they hold cash of the platform's (its commission on cash jobs).
 *
 * Payouts net the owed amount: commission owed on cash jobs is set against earnings due, so a
 * professional is either due a payout (at most the net due) or owes a settlement (at most the net
 * owed), never both at once.
 */
export const ACCOUNTS = [
  "customer",
  "platform_funds",
  "professional_cash",
  "commission",
  "professional_earning",
  "refunds_due",
] as const;
export type Account = (typeof ACCOUNTS)[number];

export const TX_KINDS = ["payment", "job", "payout", "settlement", "refund", "fee"] as const;
export type TxKind = (typeof TX_KINDS)[number];

export const PAYMENT_METHODS = ["cash", "esewa", "khalti"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** How an admin pays a professional out (or receives cash owed). */
export const PAYOUT_METHODS = ["bank", "esewa", "khalti", "cash"] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * A cash payment the professional recorded: the customer confirms or disputes it; an admin settles a
 * dispute as confirmed (the cash was paid) or waived (nobody owes it, nothing is booked).
 */
export const CASH_STATES = ["awaiting", "confirmed", "disputed", "waived"] as const;
export type CashState = (typeof CASH_STATES)[number];
/** How an admin settles a disputed cash payment. */
export const DISPUTE_OUTCOMES = ["paid", "waived"] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
/** Unanswered cash is confirmed by itself after this long. */
export const CASH_AUTO_CONFIRM_MS = 48 * 60 * 60 * 1000;

/** Whether entries form a transaction: at least two, whole paisa, summing to zero. */
export function balanced(entries: readonly { amountPaisa: number }[]): boolean {
  return (
    entries.length >= 2 &&
    entries.every((e) => Number.isSafeInteger(e.amountPaisa)) &&
    entries.reduce((sum, e) => sum + e.amountPaisa, 0) === 0
  );
}

/** What the platform owes a professional (negative: what they owe the platform). */
export function dueToProfessional(sums: {
  professional_earning: number;
  professional_cash: number;
}) {
  // 0 − x, not −x: a settled balance is 0, never −0
  return 0 - (sums.professional_earning + sums.professional_cash);
}
