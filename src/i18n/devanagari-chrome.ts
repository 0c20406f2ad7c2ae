/**
 * The Devanagari every page shows, whatever its language: the brand beside "GharSewa" (in the header
 * and on About), Nepali's own name in the language switch, and "Language" in Nepali on a new
 * visitor's language offer. They are set in a font cut down to these letters (vite.config.ts,
 * `font-chrome` in src/index.css), so an English visit fetches 2 KB of Devanagari, not 50 KB.
 */
export const BRAND_NE = "घर सेवा";
export const NEPALI_NAME = { short: "ने", full: "नेपाली" };
export const LANGUAGE_NE = "भाषा";
export const DEVANAGARI_CHROME_TEXT = [
  BRAND_NE,
  NEPALI_NAME.short,
  NEPALI_NAME.full,
  LANGUAGE_NE,
].join(" ");
