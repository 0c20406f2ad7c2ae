import path from "node:path";
import type { Plugin } from "vite";

/**
 * Resolves imports of `source` to `shim` (a module that fetches the real one on first use) in the
 * modules `shimmedIn` accepts; the shim itself and every other module import the real module. The
 * sources keep their own imports, and the unit tests (vitest.config.ts) the real modules.
 */
export function shimImport(options: {
  source: string;
  shim: string;
  shimmedIn: (importer: string) => boolean;
}): Plugin {
  const shim = path.resolve(options.shim);
  return {
    name: `gharsewa:shim-import:${options.source}`,
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== options.source || !importer) return null;
      const file = importer.split("?")[0];
      return file !== shim && options.shimmedIn(file) ? shim : null;
    },
  };
}
