/**
 * An admin's one-time setup link (`npm run create-admin`): the token it carries and how long it lives.
 * The page it opens sets the admin's password, then two-factor sign-in is set up as at any first
 * sign-in.
 */
const HOUR = 60 * 60_000;

export const ADMIN_SETUP = {
  /** Random bytes of a token (256 bits), written as 64 hex digits. */
  tokenBytes: 32,
  lifetimeMs: 24 * HOUR,
} as const;

const TOKEN = new RegExp(`^[0-9a-f]{${ADMIN_SETUP.tokenBytes * 2}}$`);

/** True when `token` has a setup token's shape (anything else is refused before any lookup). */
export const isSetupTokenShaped = (token: string): boolean => TOKEN.test(token);
