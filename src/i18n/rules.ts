import { m } from "@/i18n/paraglide/messages";
import { getLocale } from "@/i18n/paraglide/runtime";
import { formatNumber } from "@/lib/numbers";

/**
 * The shared zod rules (convex/rules/profile.ts, the server's too) word their refusals in English;
 * the forms show them through this, which words each in the reader's language. A message it does
 * not know is shown as it is.
 */
const LABELS: Record<string, () => string> = {
  "Full name": m.label_full_name,
  Address: m.label_address,
  State: m.label_state,
  "Phone number": m.label_phone,
  "Zip code": m.label_zip,
  Email: m.label_email,
  Password: m.label_password,
  "Citizenship Front": m.doc_citizenship_front,
  "Citizenship Back": m.doc_citizenship_back,
  "Training Certificate": m.doc_training_certificate,
};

const FIXED: Record<string, () => string> = {
  "Enter a Nepali mobile (98XXXXXXXX / 97XXXXXXXX) or landline (e.g. 01-4123456).": m.rule_phone,
  "Enter a valid zip code, e.g. 44600.": m.rule_zip,
  "Enter a valid email address.": m.rule_email,
  "Choose your city.": m.rule_choose_city,
  "Choose your specialty.": m.rule_choose_specialty,
  "Only images (JPEG, PNG, WebP or GIF) are allowed.": m.rule_image_only,
  "Please enter your name.": m.rule_enter_name,
  "The name is too long.": m.rule_name_long,
  "Please write a message.": m.rule_write_message,
  "The message may be at most 2000 characters.": m.rule_message_max,
  "The hotline number is required.": m.admin_rule_hotline_required,
  "Enter the hotline as a phone number, e.g. 01-5970000.": m.admin_rule_hotline_format,
  "The banner text is required.": m.admin_rule_banner_required,
  "The banner text must be 1-300 characters.": m.admin_rule_banner_length,
  "The Nepali banner text is required.": m.admin_rule_banner_ne_required,
  "The Nepali banner text must be 1-300 characters.": m.admin_rule_banner_ne_length,
  "Enter a number of minutes.": m.admin_rule_minutes_number,
  "Use whole minutes.": m.admin_rule_minutes_whole,
  "At least 5 minutes.": m.admin_rule_minutes_min,
  "At most 1440 minutes (one day).": m.admin_rule_minutes_max,
  "Choose at least one working day.": m.hours_one_day,
  "Each day may be chosen once.": m.hours_day_once,
  "The end time must be after the start time.": m.hours_end_after_start,
};

const PATTERNS: [RegExp, (label: string, n: string) => string][] = [
  [/^(.+) is required\.$/, (label) => m.rule_required({ label })],
  [
    /^(.+) must be at least (\d+) characters\.$/,
    (label, n) => m.rule_min_chars({ label, count: n }),
  ],
  [
    /^(.+) must be at most (\d+) characters\.$/,
    (label, n) => m.rule_max_chars({ label, count: n }),
  ],
  [/^(.+) image is required\.$/, (label) => m.rule_document_required({ label })],
  [/^The image must be (\d+) MB or smaller\.$/, (size) => m.rule_image_max({ size })],
];

export function localRuleMessage(message: string): string {
  if (getLocale() === "en") return message;
  const fixed = FIXED[message];
  if (fixed) return fixed();
  for (const [pattern, word] of PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const [, first, second] = match;
    const label = LABELS[first]?.() ?? first;
    const number = (text: string | undefined) =>
      text && /^\d+$/.test(text) ? formatNumber(Number(text)) : (text ?? "");
    return /^\d+$/.test(first) ? word(number(first), "") : word(label, number(second));
  }
  return message;
}

/** A document kind's label (convex/rules/documents.ts) in the reader's language. */
export function localDocumentLabel(key: string): string {
  const labels: Record<string, () => string> = {
    citizenshipFront: m.doc_citizenship_front,
    citizenshipBack: m.doc_citizenship_back,
    trainingCertificate: m.doc_training_certificate,
    photo: m.doc_profile_photo,
  };
  return labels[key]?.() ?? key;
}
