import { execFileSync, type StdioOptions } from "node:child_process";
import { E2E, type Deployment } from "./env";

/** Creates an admin account on an e2e deployment (this worker's) with the project's own script. */
export function createAdmin(
  admin: { username: string; password: string },
  stdio: StdioOptions = "pipe",
  on: Deployment = E2E,
): void {
  execFileSync(
    "npx",
    ["tsx", "scripts/create-admin.ts", admin.username, "--url", on.convexUrl, "--data", on.dataDir],
    { env: { ...process.env, ADMIN_PASSWORD: admin.password }, stdio },
  );
}

/**
 * Creates an admin without a password, as `npm run create-admin` does for a newcomer, and returns
 * the one-time setup link the script prints for them.
 */
export function createAdminWithSetupLink(username: string): string {
  const { ADMIN_PASSWORD: _ignored, ...env } = process.env;
  const printed = execFileSync(
    "npx",
    [
      "tsx",
      "scripts/create-admin.ts",
      username,
      "--url",
      E2E.convexUrl,
      "--data",
      E2E.dataDir,
      "--web",
      E2E.webUrl,
    ],
    { env, encoding: "utf8" },
  );
  const link = /https?:\/\/\S+\/admin-setup\?token=\S+/.exec(printed)?.[0];
  if (link === undefined) throw new Error(`no setup link in:\n${printed}`);
  return link;
}
