/**
 * The rules for what people type about themselves, as zod schemas: the server parses sign-ups and
 * profile edits with them and the forms check the same rules before submit.
 */
import * as z from "zod/mini";

export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

/** Digits of a phone number with spaces, dashes and a +977 country code removed. */
export function phoneDigits(input: string): string {
  return input.replace(/[\s-]/g, "").replace(/^\+?977/, "");
}

/** Nepali mobile (98/97 + 8 digits) or landline (0 + area code + number, 9 digits, e.g. 01-4123456). */
export function isNepaliPhone(input: string): boolean {
  const digits = phoneDigits(input.trim());
  return /^9[78]\d{8}$/.test(digits) || /^0\d{8}$/.test(digits);
}

const text = (label: string, min: number, max: number) =>
  z.string({ error: `${label} is required.` }).check(
    z.trim(),
    z.minLength(min, {
      error: min <= 1 ? `${label} is required.` : `${label} must be at least ${min} characters.`,
    }),
    z.maxLength(max, { error: `${label} must be at most ${max} characters.` }),
  );

export const nameRule = text("Full name", 2, 80);
export const addressRule = text("Address", 2, 200);
export const stateRule = text("State", 2, 60);

export const phoneRule = z.string({ error: "Phone number is required." }).check(
  z.trim(),
  z.refine(isNepaliPhone, {
    error: "Enter a Nepali mobile (98XXXXXXXX / 97XXXXXXXX) or landline (e.g. 01-4123456).",
  }),
);

export const zipCodeRule = z
  .string({ error: "Zip code is required." })
  .check(
    z.trim(),
    z.regex(/^[0-9A-Za-z -]{3,10}$/, { error: "Enter a valid zip code, e.g. 44600." }),
  );

export const emailRule = z.pipe(
  z.string({ error: "Email is required." }).check(z.trim()),
  z.email({ error: "Enter a valid email address." }),
);

export const passwordRule = z.string({ error: "Password is required." }).check(
  z.minLength(PASSWORD_LENGTH.min, {
    error: `Password must be at least ${PASSWORD_LENGTH.min} characters.`,
  }),
  z.maxLength(PASSWORD_LENGTH.max, {
    error: `Password must be at most ${PASSWORD_LENGTH.max} characters.`,
  }),
);

/** Profile fields every account can edit; the same rules apply at sign-up and on profile edits. */
export const profileRules = {
  name: nameRule,
  phone: phoneRule,
  address: addressRule,
  zipCode: zipCodeRule,
};
