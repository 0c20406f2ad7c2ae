/** Integer Nepali rupees as people in Nepal write them: the server's notifications and the web app share it. */

/** "1,500", "1,50,000": digit groups of the Indian numbering system (lakh, crore), whole rupees. */
export function formatAmount(amount: number): string {
  const sign = amount < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(amount)));
  if (digits.length <= 3) return sign + digits;
  const head = digits.slice(0, -3);
  const groups = head.replace(/\B(?=(\d{2})+(?!\d))/g, ",");
  return `${sign}${groups},${digits.slice(-3)}`;
}

/** "Nrs. 1,500". */
export function formatNrs(amount: number): string {
  return `Nrs. ${formatAmount(amount)}`;
}

/**
 * Money is stored and computed in integer paisa (100 paisa = 1 rupee); rupees appear only at the
 * edges (the catalogue's prices, what people read).
 */
export const PAISA_PER_RUPEE = 100;
/** The largest amount any bill line, payment or payout may hold: Nrs. 10,00,000. */
export const MAX_AMOUNT_PAISA = 1_000_000 * PAISA_PER_RUPEE;

export function rupeesToPaisa(rupees: number): number {
  return Math.round(rupees * PAISA_PER_RUPEE);
}

/** Why an amount is refused, or null: a whole number of paisa above zero, at most MAX_AMOUNT_PAISA. */
export function amountProblem(paisa: number): string | null {
  if (!Number.isSafeInteger(paisa)) return "The amount must be a whole number of paisa.";
  if (paisa <= 0) return "The amount must be more than zero.";
  if (paisa > MAX_AMOUNT_PAISA)
    return `The amount may be at most ${formatPaisa(MAX_AMOUNT_PAISA)}.`;
  return null;
}

/** "1,500" for whole rupees, "1,500.50" otherwise (Indian grouping, as formatAmount). */
export function formatPaisaAmount(paisa: number): string {
  const sign = paisa < 0 ? "-" : "";
  const abs = Math.abs(Math.round(paisa));
  const rupees = formatAmount(Math.floor(abs / PAISA_PER_RUPEE));
  const rest = abs % PAISA_PER_RUPEE;
  return `${sign}${rupees}${rest === 0 ? "" : `.${String(rest).padStart(2, "0")}`}`;
}

/** "Nrs. 1,500.50". */
export function formatPaisa(paisa: number): string {
  return `Nrs. ${formatPaisaAmount(paisa)}`;
}

/** The platform's share of a job's gross, in whole paisa (rounded half up). */
export function commissionOf(grossPaisa: number, percent: number): number {
  return Math.round((grossPaisa * percent) / 100);
}

/** Rupees as typed ("450", "1,200.50", Latin digits) in paisa; null when it is not such an amount. */
export function paisaFromRupees(text: string): number | null {
  const plain = text.replace(/[,\s]/g, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(plain)) return null;
  const [rupees, paisa = ""] = plain.split(".");
  return Number(rupees) * PAISA_PER_RUPEE + Number(paisa.padEnd(2, "0"));
}
