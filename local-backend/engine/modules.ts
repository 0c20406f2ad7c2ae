// Discovers the modules of a convex/ directory and loads them once per generation
// (convex-test calls the loader on every function call, so imports are cached here).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type ModuleMap = Record<string, () => Promise<Record<string, unknown>>>;

const SOURCE = /\.(ts|js|mts|mjs)$/;
// Test files and test helpers (e.g. test.setup.ts, which uses import.meta.glob) are not deployed code.
const SKIP = /((^|[.-])(test|spec)([.-]|$)|\.d\.ts$)/;

export function listModuleFiles(convexDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      // _deps/ holds the chunks a CLI push shares between modules: imported by them, never functions.
      if (name.startsWith(".") || name === "node_modules" || name === "_deps") continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(name) && !SKIP.test(name)) out.push(full);
    }
  };
  walk(convexDir);
  return out.sort();
}

export type Importer = (file: string) => Promise<Record<string, unknown>>;

/** Plain dynamic import: the first generation, and the only one under test runners. */
export const nativeImport: Importer = (file) =>
  import(pathToFileURL(file).href) as Promise<Record<string, unknown>>;

/**
 * Builds the modules map convex-test expects (keys must include a `_generated` path
 * so it can find the modules root). Each module is imported at most once.
 */
export function buildModuleMap(convexDir: string, importer: Importer): ModuleMap {
  const map: ModuleMap = {};
  const root = path.resolve(convexDir);
  for (const file of listModuleFiles(root)) {
    let cached: Promise<Record<string, unknown>> | undefined;
    map[file] = () => (cached ??= importer(file));
  }
  if (!Object.keys(map).some((k) => k.includes(`${path.sep}_generated${path.sep}`))) {
    map[path.join(root, "_generated", "api.js")] = () => Promise.resolve({});
  }
  return map;
}

/** Imports every module eagerly so a broken module is reported at (re)load time. */
export async function preloadAll(map: ModuleMap): Promise<void> {
  for (const [file, load] of Object.entries(map)) {
    if (file.includes(`${path.sep}_generated${path.sep}`)) continue;
    try {
      await load();
    } catch (error) {
      throw new Error(
        `Failed to load ${file}: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
}
