import { execFileSync } from "node:child_process";
import { E2E } from "./env";

/** The web server is up by now: create the admin the admin specs sign in as. */
export default function globalSetup() {
  execFileSync(
    "npx",
    [
      "tsx",
      "scripts/create-admin.ts",
      E2E.admin.username,
      "--url",
      E2E.convexUrl,
      "--data",
      E2E.dataDir,
    ],
    {
      env: { ...process.env, ADMIN_PASSWORD: E2E.admin.password },
      stdio: "inherit",
    },
  );
}
