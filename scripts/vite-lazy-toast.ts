import path from "node:path";
import type { Plugin } from "vite";

/**
 * Resolves `sonner` to `shim` (src/lib/lazy-toast.ts: the `toast` API, sonner fetched on first use)
 * for every module except the shim itself and those in `direct` (the Toaster, loaded after the first
 * page). The source keeps sonner's own imports, and the unit tests (vitest.config.ts) the real module.
 */
export function lazyToast(options: { shim: string; direct: string[] }): Plugin {
  const shim = path.resolve(options.shim);
  const direct = new Set([shim, ...options.direct.map((file) => path.resolve(file))]);
  return {
    name: "gharsewa:lazy-toast",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== "sonner" || !importer) return null;
      return direct.has(importer.split("?")[0]) ? null : shim;
    },
  };
}
