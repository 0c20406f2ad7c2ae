/**
 * Two-factor sign-in for admins: TOTP (RFC 6238) as authenticator apps read it from an otpauth://
 * URI, and single-use recovery codes. The web app shows the same lengths and formats.
 */
export const TOTP = {
  issuer: "GharSewa",
  /** SHA-1, 6 digits, 30 s: what every authenticator app reads from a URI, RFC 6238's defaults. */
  algorithm: "SHA1",
  digits: 6,
  periodSeconds: 30,
  /** Steps either side of now a code may be from: the clocks of phones drift. */
  window: 1,
  /** Bytes of the shared secret (160 bits, RFC 4226's recommendation). */
  secretBytes: 20,
  /** A secret shown for setup but never confirmed expires. */
  setupLifetimeMs: 15 * 60_000,
} as const;

export const RECOVERY_CODES = {
  count: 10,
  /** Characters of one code, from RECOVERY_ALPHABET: 31^10, about 49 bits each. */
  length: 10,
} as const;

/** Lower-case letters and digits without the look-alikes (0/o, 1/l/i): 31 symbols. */
export const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A recovery code as shown: "abcde-fghjk". */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** An authenticator app's code: exactly its digits. */
export const TOTP_CODE = new RegExp(`^\\d{${TOTP.digits}}$`);

/**
 * What someone typed as a second factor: a 6-digit TOTP code, a recovery code (any case, spaces and
 * dashes ignored), or null when it is neither.
 */
export function parseSecondFactor(
  input: string,
): { kind: "totp"; code: string } | { kind: "recovery"; code: string } | null {
  if (input.length > 64) return null;
  const compact = input.replace(/[\s-]/g, "").toLowerCase();
  if (TOTP_CODE.test(compact)) return { kind: "totp", code: compact };
  if (
    compact.length === RECOVERY_CODES.length &&
    [...compact].every((c) => RECOVERY_ALPHABET.includes(c))
  )
    return { kind: "recovery", code: compact };
  return null;
}
