// Convex's runtime has `process.env`; declared for this module only, because the web app type-checks
// convex/ (through _generated/api) without Node's types.
declare const process: { env: Record<string, string | undefined> };

/** The HTTP actions' origin: set by Convex on every deployment (and by the local backend). */
export function siteUrl(): string {
  const site = process.env.CONVEX_SITE_URL;
  if (site === undefined) throw new Error("CONVEX_SITE_URL is not set");
  return site;
}
