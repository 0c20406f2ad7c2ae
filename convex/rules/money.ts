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
