const DEVANAGARI_ZERO = 0x0966;

/** Devanagari digits (०–९) replaced by Latin ones; everything else kept. Inputs store Latin digits. */
export function toLatinDigits(text: string): string {
  return text.replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO));
}

/** Latin digits replaced by Devanagari ones. */
export function toDevanagariDigits(text: string): string {
  return text.replace(/[0-9]/g, (d) => String.fromCharCode(DEVANAGARI_ZERO + Number(d)));
}

/** A number typed in either script ("१,५००", "1500"); NaN when it is not one. */
export function parseDigits(text: string): number {
  const latin = toLatinDigits(text).replace(/[,\s]/g, "");
  return latin === "" || !/^-?\d+(\.\d+)?$/.test(latin) ? Number.NaN : Number(latin);
}
