/**
 * One-time codes sent to an email address or phone (password reset; the web app shows the same
 * numbers), and how a person names where to send one: an email address or a Nepali mobile number.
 */
import { phoneDigits } from "./profile";

const MINUTE = 60_000;

export const ACCOUNT_CODE = {
  digits: 6,
  lifetimeMs: 15 * MINUTE,
  /** Wrong tries of one code; the last one ends it. */
  attempts: 5,
} as const;

/** What a code looks like: exactly its digits. */
export const ACCOUNT_CODE_SHAPE = new RegExp(`^\\d{${ACCOUNT_CODE.digits}}$`);

/** The code a person typed, trimmed, when it looks like one; null otherwise (it cannot be right). */
export function typedAccountCode(input: string): string | null {
  const trimmed = input.trim();
  return ACCOUNT_CODE_SHAPE.test(trimmed) ? trimmed : null;
}

/** Where a code goes: an email address (lowercased) or a Nepali mobile number (10 digits). */
export type Contact = { kind: "email"; value: string } | { kind: "phone"; value: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^9[78]\d{8}$/;

/** The contact someone typed, or null when it is neither an email address nor a Nepali mobile. */
export function parseContact(input: string): Contact | null {
  const trimmed = input.trim();
  if (trimmed.length > 254) return null;
  if (trimmed.includes("@"))
    return EMAIL.test(trimmed) ? { kind: "email", value: trimmed.toLowerCase() } : null;
  const digits = phoneDigits(trimmed);
  return MOBILE.test(digits) ? { kind: "phone", value: digits } : null;
}

/** A Nepali mobile number's 10 digits, or null (landlines cannot receive an SMS). */
export function mobileDigits(phone: string | undefined): string | null {
  const digits = phoneDigits((phone ?? "").trim());
  return MOBILE.test(digits) ? digits : null;
}
