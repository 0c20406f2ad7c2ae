/**
 * The Bikram Sambat year of a moment, for lines such as the footer's copyright that must not pull the
 * full calendar converter (src/lib/format.ts) into the landing page's bundle. The BS year begins on
 * 1 Baisakh, which falls on 13, 14 or 15 April: from 14 April (Kathmandu) on, it is the Gregorian
 * year + 57, before that + 56 (exact except on those edge days, checked against the converter).
 */
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

export function bsYear(ms: number): number {
  const kathmandu = new Date(ms + KATHMANDU_OFFSET_MS);
  const year = kathmandu.getUTCFullYear();
  const month = kathmandu.getUTCMonth() + 1;
  const day = kathmandu.getUTCDate();
  return month > 4 || (month === 4 && day >= 14) ? year + 57 : year + 56;
}
