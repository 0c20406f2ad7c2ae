import { lengthBreak } from "@convex/rules/moderation";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

/**
 * What is wrong with a typed reason, note or report text for its limits (rules/moderation.ts), in
 * words: `tooShort` with the minimum, or the common "keep it to" sentence; undefined when it fits.
 */
export function lengthMessage(
  text: string,
  limits: { min: number; max: number },
  tooShort: (min: string) => string,
): string | undefined {
  const broken = lengthBreak(text, limits);
  if (broken === "REASON_REQUIRED") return tooShort(formatNumber(limits.min));
  if (broken === "REASON_TOO_LONG") return m.text_too_long({ max: formatNumber(limits.max) });
  return undefined;
}
