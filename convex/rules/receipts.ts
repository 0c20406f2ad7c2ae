/** A receipt's number as printed: "GS-000042", in the order payments were made. */
export function receiptNumber(n: number): string {
  return `GS-${String(n).padStart(6, "0")}`;
}
