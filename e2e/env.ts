/** The e2e deployment (see playwright.config.ts) and the accounts the tests use. */
export const E2E = {
  convexUrl: "http://127.0.0.1:3220",
  siteUrl: "http://127.0.0.1:3221",
  webUrl: "http://127.0.0.1:5180",
  dataDir: ".data-e2e",
  admin: { username: "e2e-admin", password: "e2e-admin-password" },
  /** A demo professional seeded by seed:init (convex/model/demoData.ts). */
  demoProfessional: {
    email: "professional@demo.np",
    password: "demo-password-1",
    name: "Ram Bahadur Thapa",
  },
};

/** A unique suffix so tests can run again on the same database. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A valid 1×1 PNG, as the document uploads need real image bytes. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
export const png = (name: string) => ({ name, mimeType: "image/png", buffer: PNG });
