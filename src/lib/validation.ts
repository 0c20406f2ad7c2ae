import { z } from "zod";

/** Digits of a phone number with spaces, dashes and a +977 country code removed. */
export function phoneDigits(input: string): string {
  return input.replace(/[\s-]/g, "").replace(/^\+?977/, "");
}

/** Nepali mobile (98/97 + 8 digits) or landline (0 + area code + number, 9 digits, e.g. 01-4123456). */
export function isNepaliPhone(input: string): boolean {
  const digits = phoneDigits(input.trim());
  return /^9[78]\d{8}$/.test(digits) || /^0\d{8}$/.test(digits);
}

export const phoneSchema = z
  .string()
  .trim()
  .refine(
    isNepaliPhone,
    "Enter a Nepali mobile (98XXXXXXXX / 97XXXXXXXX) or landline (e.g. 01-4123456).",
  );

export const emailSchema = z.string().trim().pipe(z.email("Enter a valid email address."));
export const passwordSchema = z
  .string()
  .min(8, "Password must be at least 8 characters.")
  .max(128, "Password must be at most 128 characters.");
export const nameSchema = z
  .string()
  .trim()
  .min(2, "Full name must be at least 2 characters.")
  .max(80, "Full name must be at most 80 characters.");
export const addressSchema = z
  .string()
  .trim()
  .min(2, "Address must be at least 2 characters.")
  .max(200, "Address must be at most 200 characters.");
export const zipSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z -]{3,10}$/, "Enter a valid zip code, e.g. 44600.");
