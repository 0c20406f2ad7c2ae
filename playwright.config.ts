import { defineConfig, devices } from "@playwright/test";
import { E2E } from "./e2e/env";

const WEB_URL = E2E.webUrl;

export default defineConfig({
  testDir: "./e2e/specs",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: WEB_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    },
  },
  globalSetup: "./e2e/global-setup.ts",
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: [
      `rm -rf ${E2E.dataDir}`,
      `VITE_CONVEX_URL=${E2E.convexUrl} VITE_MAP_TILE_URL= npx vite build --outDir dist-e2e --emptyOutDir`,
      `npx tsx local-backend/cli.ts --serve dist-e2e --data ${E2E.dataDir} --port ${E2E.ports.convex} --site-port ${E2E.ports.site} --web-port ${E2E.ports.web} --run seed:init`,
    ].join(" && "),
    url: WEB_URL,
    reuseExistingServer: false,
    // the build compiles every message (Paraglide) first: minutes on a loaded 2-core machine
    timeout: 360_000,
  },
});
