/**
 * Creates an admin account on a running deployment (internal `admin:createAdmin`).
 *
 *   npm run create-admin -- <username> [--url http://127.0.0.1:3210] [--data .data]
 *
 * The password comes from ADMIN_PASSWORD (kept out of shell history) or is generated and printed once.
 * The new admin sets up two-factor sign-in at their first sign-in, before the admin panel opens.
 */
import { parseArgs } from "node:util";
import { adminCall, deploymentUrl, fail } from "./admin-call";

const USAGE =
  "Usage: npm run create-admin -- <username> [--url <convex url>] [--data <local backend data dir>]";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string" },
    data: { type: "string", default: ".data" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const username = positionals[0];
if (username === undefined || positionals.length > 1) fail(USAGE);

const password = process.env.ADMIN_PASSWORD;
const created = await adminCall<{ username: string; password: string }>(
  values,
  "action",
  "admin:createAdmin",
  {
    username,
    ...(password ? { password } : {}),
  },
);
console.log(`Admin created on ${deploymentUrl(values)}.`);
console.log(`  username: ${created.username}`);
if (!password) {
  console.log(`  password: ${created.password}`);
  console.log("Keep the password now: it is not stored anywhere readable and is not shown again.");
}
console.log(
  "Sign in at /admin-login of the web app: the first sign-in sets up two-factor sign-in (an",
);
console.log("authenticator app on the admin's phone) before the admin panel opens.");
