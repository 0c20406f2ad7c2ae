import NepaliDate from "nepali-date-converter";

export const KATHMANDU_TZ = "Asia/Kathmandu";

import { formatAmount } from "@convex/rules/money";

export { formatAmount, formatNrs } from "@convex/rules/money";

/** The tile/marble list keeps the spec's "Rs." label. */
export function formatRs(amount: number): string {
  return `Rs. ${formatAmount(amount)}`;
}

const kathmanduParts = new Intl.DateTimeFormat("en-US", {
  timeZone: KATHMANDU_TZ,
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

/** Calendar fields of a UTC instant as seen on a wall clock in Kathmandu. */
export function kathmanduFields(ms: number) {
  const parts = Object.fromEntries(
    kathmanduParts.formatToParts(new Date(ms)).map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

const gregorianDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: KATHMANDU_TZ,
  day: "numeric",
  month: "short",
  year: "numeric",
});
const clockTime = new Intl.DateTimeFormat("en-US", {
  timeZone: KATHMANDU_TZ,
  hour: "numeric",
  minute: "2-digit",
});

/** "5 Jan 2025" in Kathmandu. */
export function formatGregorianDate(ms: number): string {
  return gregorianDate.format(new Date(ms));
}

/** "3:45 PM" in Kathmandu, whatever the browser's zone. */
export function formatKathmanduTime(ms: number): string {
  return clockTime.format(new Date(ms));
}

/** Bikram Sambat date of the Kathmandu calendar day, e.g. "21 Poush 2081 BS". */
export function formatBsDate(ms: number): string {
  const { year, month, day } = kathmanduFields(ms);
  // The converter reads local calendar fields, so hand it a local date carrying Kathmandu's fields.
  return `${new NepaliDate(new Date(year, month - 1, day)).format("D MMMM YYYY")} BS`;
}

/** "5 Jan 2025 (21 Poush 2081 BS), 3:45 PM" — Gregorian with BS beside it, Kathmandu time. */
export function formatDateTime(ms: number): string {
  return `${formatGregorianDate(ms)} (${formatBsDate(ms)}), ${formatKathmanduTime(ms)}`;
}

/** Short relative time for activity lists: "just now", "5 min ago", "3 h ago", else the date. */
export function formatRelative(ms: number, now: number): string {
  const minutes = Math.round((now - ms) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatGregorianDate(ms);
}

/** Kathmandu wall-clock "YYYY-MM-DDTHH:mm" for a datetime-local input. */
export function toKathmanduInputValue(ms: number): string {
  const f = kathmanduFields(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${f.year}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}`;
}

const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

/** Parses a datetime-local value as Kathmandu wall-clock time (UTC+5:45, no DST) into UTC ms; NaN if invalid. */
export function fromKathmanduInputValue(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi] = m.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi) - KATHMANDU_OFFSET_MS;
}

/** Splits a full name on its first space (spec §3). */
export function splitName(fullName: string): { firstName: string; lastName: string } {
  const trimmed = fullName.trim();
  const i = trimmed.indexOf(" ");
  return i === -1
    ? { firstName: trimmed, lastName: "" }
    : { firstName: trimmed.slice(0, i), lastName: trimmed.slice(i + 1).trim() };
}

/** The address with its city appended, unless the address already names it. */
export function withCity(address: string, city: string): string {
  return address.toLowerCase().includes(city.toLowerCase()) ? address : `${address}, ${city}`;
}
