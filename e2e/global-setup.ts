import { execFileSync } from "node:child_process";
import { E2E } from "./env";

/** The web server is up by now: create the admins the admin specs sign in as. */
export default function globalSetup() {
  for (const admin of [E2E.admin, E2E.adminNe])
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
      {
        env: { ...process.env, ADMIN_PASSWORD: admin.password },
        stdio: "inherit",
      },
    );
}
