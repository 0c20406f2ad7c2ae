/**
 * Ports of the e2e deployment: 3220/3221/5180, shifted by E2E_PORT_OFFSET so that several
 * checkouts on one machine can run the browser tests at once.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
const ports = { convex: 3220 + offset, site: 3221 + offset, web: 5180 + offset };

/** The e2e deployment (see playwright.config.ts) and the accounts the tests use. */
export const E2E = {
  ports,
  convexUrl: `http://127.0.0.1:${ports.convex}`,
  siteUrl: `http://127.0.0.1:${ports.site}`,
  webUrl: `http://127.0.0.1:${ports.web}`,
  dataDir: ".data-e2e",
  admin: { username: "e2e-admin", password: "e2e-admin-password" },
  /**
   * A second admin for the specs in Nepali: an account's language is adopted at sign-in, so the
   * English specs' admin would turn a Nepali browser back to English.
   */
  adminNe: { username: "e2e-admin-ne", password: "e2e-admin-ne-password" },
  /** A demo professional seeded by seed:init (convex/model/demoData.ts). */
  demoProfessional: {
    email: "professional@demo.np",
    password: "demo-password-1",
    name: "Ram Bahadur Thapa",
  },
};

/** A unique suffix so tests can run again on the same database. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A mobile number no other account has (a phone number belongs to one account). */
export const uniquePhone = () =>
  `98${Math.floor(Math.random() * 1e8)
    .toString()
    .padStart(8, "0")}`;

/** A valid 1×1 PNG, as the document uploads need real image bytes. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
export const png = (name: string) => ({ name, mimeType: "image/png", buffer: PNG });
