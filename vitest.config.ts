import { configDefaults, defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { paraglideVitePlugin } from "@inlang/paraglide-js";
import { paraglideOptions } from "./paraglide.config.ts";

const src = fileURLToPath(new URL("./src", import.meta.url));
const convex = fileURLToPath(new URL("./convex", import.meta.url));

/**
 * Two cores (the CI machine's): the unit projects run two files at once (vitest's default on two cores
 * is one); the drills, which start backends and measure latencies, run after them one at a time.
 */
const UNIT = { maxWorkers: 2, sequence: { groupOrder: 0 } };
const DRILLS = { maxWorkers: 1, sequence: { groupOrder: 1 } };
const ACCESS_SWEEP = "drills/access.test.ts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...UNIT,
          name: "convex",
          include: ["convex/**/*.test.ts"],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
          // a real password sign-up or sign-in hashes (PBKDF2, ~0.25 s of a quiet core, more on a busy one)
          testTimeout: 30_000,
        },
      },
      {
        // The web tests import the compiled message functions: compile them first, one module per
        // message as `vite build` does (outside production paraglide's default is one per locale), so
        // that the build after them (the e2e suite's) finds paraglide's cache and skips its compile.
        plugins: [
          paraglideVitePlugin({ ...paraglideOptions, outputStructure: "message-modules" }),
          react(),
        ],
        resolve: { alias: { "@": src, "@convex": convex } },
        test: {
          ...UNIT,
          name: "web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["./src/test-setup.ts"],
          // renders wait up to 5 s (test-setup.ts) on 2 shared cores
          testTimeout: 20_000,
        },
      },
      {
        test: {
          ...UNIT,
          name: "local-backend",
          include: ["local-backend/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The build's own plugins (scripts/vite-*.ts).
        test: { ...UNIT, name: "scripts", include: ["scripts/**/*.test.ts"], environment: "node" },
      },
      {
        // The access sweep (a drill, under convex-test): CPU only, no backend and no timing, so it
        // runs beside the unit tests instead of alone after them.
        test: {
          ...UNIT,
          name: "access-sweep",
          include: [ACCESS_SWEEP],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Reliability drills (drills/README in the main README): node by default; convex-test files
        // opt into edge-runtime and component renders into jsdom with a file comment.
        plugins: [react()],
        resolve: { alias: { "@": src, "@convex": convex } },
        test: {
          ...DRILLS,
          name: "drills",
          include: ["drills/**/*.test.{ts,tsx}"],
          exclude: [...configDefaults.exclude, ACCESS_SWEEP],
          environment: "node",
          server: { deps: { inline: ["convex-test"] } },
          testTimeout: 60_000,
          // a started backend builds and boots: over a minute when the machine is shared
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
