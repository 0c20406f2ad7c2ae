/**
 * The e2e deployments: one per Playwright worker, so that specs running at the same time share no
 * accounts, sessions or authenticator steps. Deployment i listens on 3220/3221/5180 + 50·i, shifted
 * by E2E_PORT_OFFSET so that several checkouts on one machine can run the browser tests at once.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

/** How many workers, and so deployments, the browser tests run on (two cores: two). */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/** Deployment `index`: its ports, URLs, data directory and build directory. */
export function deployment(index: number) {
  const shift = offset + 50 * index;
  const ports = { convex: 3220 + shift, site: 3221 + shift, web: 5180 + shift };
  return {
    ports,
    convexUrl: `http://127.0.0.1:${ports.convex}`,
    siteUrl: `http://127.0.0.1:${ports.site}`,
    webUrl: `http://127.0.0.1:${ports.web}`,
    dataDir: `.data-e2e/${index}`,
    distDir: `dist-e2e/${index}`,
  };
}
export type Deployment = ReturnType<typeof deployment>;

/**
 * The deployment of this worker (Playwright numbers the workers running at once from 0) and the
 * accounts the tests use; outside a worker (the config, global setup) deployment 0.
 */
export const E2E = {
  ...deployment(Number(process.env.TEST_PARALLEL_INDEX ?? 0)),
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
