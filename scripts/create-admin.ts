/**
 * Creates an admin account on a running deployment (internal `admin:createAdmin`) and prints its
 * one-time setup link; for an existing admin it prints a new link instead (`adminSetup:issue`).
 *
 *   npm run create-admin -- <username> [--url http://127.0.0.1:3210] [--data .data] [--web <app url>]
 *
 * The link (valid 24 hours, single-use) opens the web app's /admin-setup page: its holder sets the
 * admin's password, then two-factor sign-in, before the admin panel opens. The web app's URL is
 * --web, else SITE_URL, else the local backend's default. ADMIN_PASSWORD, when set, is the new
 * admin's password until the link replaces it.
 */
import { parseArgs } from "node:util";
import { adminSetupLink } from "../local-backend/sign-in-banner";
import { adminCall, deploymentUrl, fail } from "./admin-call";

const USAGE =
  "Usage: npm run create-admin -- <username> [--url <convex url>] [--data <local backend data dir>] [--web <web app url>]";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string" },
    data: { type: "string", default: ".data" },
    web: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const username = positionals[0];
if (username === undefined || positionals.length > 1) fail(USAGE);
const webOrigin = (values.web ?? process.env.SITE_URL ?? "http://127.0.0.1:5173").replace(
  /\/$/,
  "",
);

const reissued = await adminCall<string | null>(values, "mutation", "adminSetup:issue", {
  username,
});
let setupToken: string;
if (reissued !== null) {
  setupToken = reissued;
  console.log(
    `Admin ${username} exists on ${deploymentUrl(values)}: a new setup link replaces any older one.`,
  );
} else {
  const password = process.env.ADMIN_PASSWORD;
  const created = await adminCall<{ username: string; setupToken: string }>(
    values,
    "action",
    "admin:createAdmin",
    { username, ...(password ? { password } : {}) },
  );
  setupToken = created.setupToken;
  console.log(`Admin ${created.username} created on ${deploymentUrl(values)}.`);
}
console.log("One-time setup link (valid 24 hours, works once; give it to the admin only):");
console.log(`  ${adminSetupLink(webOrigin, setupToken)}`);
console.log(
  "It sets the admin's password and then two-factor sign-in (an authenticator app on their phone).",
);
