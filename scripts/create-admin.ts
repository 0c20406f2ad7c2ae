/**
 * Creates an admin account on a running deployment by calling the internal `admin:createAdmin`
 * with the deployment's admin key, as `npx convex run` does.
 *
 *   npm run create-admin -- <username> [--url http://127.0.0.1:3210] [--data .data]
 *
 * The password comes from ADMIN_PASSWORD (kept out of shell history) or is generated and printed once.
 * The admin key comes from CONVEX_ADMIN_KEY / CONVEX_DEPLOY_KEY, else from <data>/admin-key of the
 * local backend.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const USAGE = "Usage: npm run create-admin -- <username> [--url <convex url>] [--data <local backend data dir>]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: "string" }, data: { type: "string", default: ".data" }, help: { type: "boolean", short: "h" } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const username = positionals[0];
if (username === undefined || positionals.length > 1) fail(USAGE);

const url = (values.url ?? process.env.CONVEX_URL ?? process.env.VITE_CONVEX_URL ?? "http://127.0.0.1:3210").replace(/\/$/, "");

function adminKey(): string {
  const fromEnv = process.env.CONVEX_ADMIN_KEY ?? process.env.CONVEX_DEPLOY_KEY;
  if (fromEnv) return fromEnv.trim();
  const file = path.join(values.data, "admin-key");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    fail(`No admin key: set CONVEX_ADMIN_KEY, or start the local backend so that ${file} exists.`);
  }
}

const password = process.env.ADMIN_PASSWORD;
let response: Response;
try {
  response = await fetch(`${url}/api/action`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Convex ${adminKey()}` },
    body: JSON.stringify({
      path: "admin:createAdmin",
      args: [{ username, ...(password ? { password } : {}) }],
      format: "json",
    }),
  });
} catch (error) {
  fail(`Could not reach ${url}: ${error instanceof Error ? error.message : String(error)}. Is the backend running?`);
}
const body = (await response.json().catch(() => ({}))) as {
  status?: string;
  value?: { username: string; password: string };
  errorMessage?: string;
  errorData?: { message?: string };
};
if (response.status !== 200 || body.status !== "success" || body.value === undefined) {
  fail(`Admin not created: ${body.errorData?.message ?? body.errorMessage ?? `HTTP ${response.status}`}`);
}
console.log(`Admin created on ${url}.`);
console.log(`  username: ${body.value.username}`);
if (!password) {
  console.log(`  password: ${body.value.password}`);
  console.log("Keep the password now: it is not stored anywhere readable and is not shown again.");
}
