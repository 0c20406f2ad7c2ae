import NepaliDate from "nepali-date-converter";
import { m } from "@/i18n/paraglide/messages";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { formatDigits, formatNumber } from "@/lib/numbers";

export const KATHMANDU_TZ = "Asia/Kathmandu";

// made on first use: a module's first Intl formatter loads locale data while the page starts
let kathmanduParts: Intl.DateTimeFormat | undefined;
const kathmanduPartsFormat = () =>
  (kathmanduParts ??= new Intl.DateTimeFormat("en-US", {
    timeZone: KATHMANDU_TZ,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }));

/** Calendar fields of a UTC instant as seen on a wall clock in Kathmandu. */
export function kathmanduFields(ms: number) {
  const parts = Object.fromEntries(
    kathmanduPartsFormat()
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

const gregorianDates = new Map<Locale, Intl.DateTimeFormat>();
const clockTimes = new Map<Locale, Intl.DateTimeFormat>();

function cached(
  cache: Map<Locale, Intl.DateTimeFormat>,
  locale: Locale,
  options: Intl.DateTimeFormatOptions,
) {
  let format = cache.get(locale);
  if (!format) {
    const tag = options.hour ? "en-US" : "en-GB";
    format = new Intl.DateTimeFormat(tag, { timeZone: KATHMANDU_TZ, ...options });
    cache.set(locale, format);
  }
  return format;
}

// Nepali dates and times are written here rather than asked of Intl's "ne-NP": browsers whose ICU
// lacks Nepali data (some Chromium builds) would silently give "2026 M11 24" and "11:51 PM".
const GREGORIAN_MONTHS_NE = [
  "जनवरी",
  "फेब्रुअरी",
  "मार्च",
  "अप्रिल",
  "मे",
  "जुन",
  "जुलाई",
  "अगस्ट",
  "सेप्टेम्बर",
  "अक्टोबर",
  "नोभेम्बर",
  "डिसेम्बर",
];

/** "5 Jan 2025" in Kathmandu ("२०२५ जनवरी ५" in Nepali). */
export function formatGregorianDate(ms: number, locale: Locale = getLocale()): string {
  if (locale === "ne-NP") {
    const { year, month, day } = kathmanduFields(ms);
    return formatDigits(`${year} ${GREGORIAN_MONTHS_NE[month - 1]} ${day}`, locale);
  }
  const options = { day: "numeric", month: "short", year: "numeric" } as const;
  return cached(gregorianDates, locale, options).format(new Date(ms));
}

const gregorianMonths = new Map<Locale, Intl.DateTimeFormat>();

/** "Nov 2026": the Kathmandu calendar month holding `ms` ("२०२६ नोभेम्बर" in Nepali). */
export function formatMonth(ms: number, locale: Locale = getLocale()): string {
  if (locale === "ne-NP") {
    const { year, month } = kathmanduFields(ms);
    return formatDigits(`${year} ${GREGORIAN_MONTHS_NE[month - 1]}`, locale);
  }
  const options = { month: "short", year: "numeric" } as const;
  return cached(gregorianMonths, locale, options).format(new Date(ms));
}

/** "3:45 PM" in Kathmandu, whatever the browser's zone ("३:४५ अपराह्न" in Nepali). */
export function formatKathmanduTime(ms: number, locale: Locale = getLocale()): string {
  if (locale === "ne-NP") {
    const { hour, minute } = kathmanduFields(ms);
    const clock = `${hour % 12 || 12}:${String(minute).padStart(2, "0")}`;
    return `${formatDigits(clock, locale)} ${hour < 12 ? "पूर्वाह्न" : "अपराह्न"}`;
  }
  const options = { hour: "numeric", minute: "2-digit", hourCycle: "h12" } as const;
  return cached(clockTimes, locale, options).format(new Date(ms));
}

/**
 * Bikram Sambat date of the Kathmandu calendar day: "21 Poush 2081 BS" in English,
 * "२१ पौष २०८१, शनिबार" (Nepali month and weekday names, Devanagari digits) in Nepali.
 */
export function formatBsDate(ms: number, locale: Locale = getLocale()): string {
  const { year, month, day } = kathmanduFields(ms);
  // The converter reads local calendar fields, so hand it a local date carrying Kathmandu's fields.
  const bs = new NepaliDate(new Date(year, month - 1, day));
  return locale === "ne-NP"
    ? bs.format("D MMMM YYYY, ddd", "np")
    : m.date_bs_suffix({ date: bs.format("D MMMM YYYY") }, { locale });
}

/** A calendar day in the reader's calendar: Bikram Sambat in Nepali, Gregorian in English. */
export function formatDay(ms: number, locale: Locale = getLocale()): string {
  return locale === "ne-NP" ? formatBsDate(ms, locale) : formatGregorianDate(ms, locale);
}

/**
 * A moment in the reader's calendar first: "5 Jan 2025 (21 Poush 2081 BS), 3:45 PM" in English,
 * "२१ पौष २०८१, शनिबार (२०२५ जनवरी ५), ३:४५ अपराह्न" in Nepali — Kathmandu time.
 */
export function formatDateTime(ms: number, locale: Locale = getLocale()): string {
  const [first, second] =
    locale === "ne-NP"
      ? [formatBsDate(ms, locale), formatGregorianDate(ms, locale)]
      : [formatGregorianDate(ms, locale), formatBsDate(ms, locale)];
  return `${first} (${second}), ${formatKathmanduTime(ms, locale)}`;
}

/** Short relative time for activity lists: "just now", "5 min ago", "3 h ago", else the date. */
export function formatRelative(ms: number, now: number, locale: Locale = getLocale()): string {
  const minutes = Math.round((now - ms) / 60_000);
  if (minutes < 1) return m.time_just_now({}, { locale });
  if (minutes < 60) return m.time_minutes_ago({ count: formatNumber(minutes, locale) }, { locale });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return m.time_hours_ago({ count: formatNumber(hours, locale) }, { locale });
  return formatGregorianDate(ms, locale);
}

const weekdayNames = new Map<Locale, Intl.DateTimeFormat>();
const WEEKDAYS_NE = ["आइत", "सोम", "मङ्गल", "बुध", "बिहि", "शुक्र", "शनि"];

/** A weekday (0 = Sunday) by name: "Sun" in English, "आइत" in Nepali. */
export function formatWeekday(day: number, locale: Locale = getLocale()): string {
  // written here, not asked of Intl: without the browser's Nepali data it would say "Sun"
  if (locale === "ne-NP") return WEEKDAYS_NE[day];
  let format = weekdayNames.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
    weekdayNames.set(locale, format);
  }
  // 4 January 2026 was a Sunday
  return format.format(new Date(Date.UTC(2026, 0, 4 + day, 12)));
}

/** Working days in week order: "Sun, Mon, Tue" ("आइत, सोम, मङ्गल"). */
export function formatWeekdays(days: readonly number[], locale: Locale = getLocale()): string {
  return [...days]
    .sort((a, b) => a - b)
    .map((d) => formatWeekday(d, locale))
    .join(", ");
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

/** The address with its city appended, unless the address already names it. */
export function withCity(address: string | null, city: string): string {
  if (address === null) return city;
  return address.toLowerCase().includes(city.toLowerCase()) ? address : `${address}, ${city}`;
}
