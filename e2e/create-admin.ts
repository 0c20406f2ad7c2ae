import { execFileSync, type StdioOptions } from "node:child_process";
import { E2E } from "./env";

/** Creates an admin account on the e2e deployment with the project's own script. */
export function createAdmin(
  admin: { username: string; password: string },
  stdio: StdioOptions = "pipe",
): void {
  execFileSync(
    "npx",
    [
      "tsx",
      "scripts/create-admin.ts",
      admin.username,
      "--url",
      E2E.convexUrl,
      "--data",
      E2E.dataDir,
    ],
    { env: { ...process.env, ADMIN_PASSWORD: admin.password }, stdio },
  );
}
