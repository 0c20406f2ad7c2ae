import { defineConfig, devices } from "@playwright/test";
import { deployment, E2E_WORKERS } from "./e2e/env";

/** Each worker tests its own deployment (e2e/env.ts), so specs in parallel share no state. */
const deployments = Array.from({ length: E2E_WORKERS }, (_, index) => deployment(index));

export default defineConfig({
  testDir: "./e2e/specs",
  fullyParallel: false,
  workers: E2E_WORKERS,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    // A trace's DOM snapshots cost ~15% of a run's CPU even when kept for no test: a failure keeps
    // its screenshot, and `npx playwright test --trace retain-on-failure <spec>` records one.
    trace: "off",
    screenshot: "only-on-failure",
    // A context whose page registers the service worker precaches the whole build (~230 files): it
    // doubled a context's browser CPU. Specs of the installed app allow it (pwa-push.spec.ts).
    serviceWorkers: "block",
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
  // Started one after the other: the builds share paraglide's compiled messages.
  webServer: deployments.map((d) => ({
    command: [
      `rm -rf ${d.dataDir}`,
      `VITE_CONVEX_URL=${d.convexUrl} VITE_MAP_TILE_URL= npx vite build --outDir ${d.distDir} --emptyOutDir`,
      `npx tsx local-backend/cli.ts --serve ${d.distDir} --data ${d.dataDir} --port ${d.ports.convex} --site-port ${d.ports.site} --web-port ${d.ports.web} --run seed:init`,
    ].join(" && "),
    url: d.webUrl,
    reuseExistingServer: false,
    // the build compiles every message (Paraglide) first: minutes on a loaded 2-core machine
    timeout: 360_000,
  })),
});
