/**
 * Paying a professional out, as pure rules the admin's form and the server share: the reference's
 * size in bytes (UTF-8: Nepali letters take three each) and the rows a ledger export may hold.
 */

export const PAYOUT_LIMITS = {
  /** A bank transfer's id, a wallet's transaction id, a receipt number: never more. */
  referenceBytes: 200,
  /** Ledger rows in one CSV export; a longer range is cut and says so. */
  exportRows: 5000,
  /** The longest range one export covers. */
  exportDays: 366,
} as const;

const utf8 = new TextEncoder();

/** Why a payout reference is refused, or null: 1 to 200 bytes once trimmed. */
export function referenceProblem(reference: string): string | null {
  const trimmed = reference.trim();
  if (trimmed.length === 0) return "Give the transfer's reference.";
  if (utf8.encode(trimmed).length > PAYOUT_LIMITS.referenceBytes)
    return `The reference may be at most ${PAYOUT_LIMITS.referenceBytes} bytes.`;
  return null;
}
