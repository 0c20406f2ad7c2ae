/**
 * CSV (RFC 4180) that a spreadsheet opens as text: a cell starting with = + - @, a tab or a carriage
 * return would be run as a formula (CSV injection), so it is prefixed with an apostrophe first.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula starts defused, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const text = typeof value === "number" ? String(value) : value;
  const safe = typeof value === "string" && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text, CRLF line ends, the header first. */
export function toCsv(header: readonly string[], rows: readonly (string | number | null)[][]) {
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
