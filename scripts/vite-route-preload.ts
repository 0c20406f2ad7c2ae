import { existsSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { LOCALE_STORAGE_KEY, startingLocale } from "../src/i18n/starting-locale.ts";

type Chunk = {
  type: "chunk";
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
};
type Asset = { type: "asset"; fileName: string };

/**
 * Shortens the landing pages' critical path in the built index.html. A route's module is a dynamic
 * import the router starts only once the entry has run; an inline script starts it (its chunks as
 * modulepreload, its CSS as preload) with the entry for the pages in `routes` (exact pathname →
 * the module files the router imports for it: its guard's, then its page's). Fonts whose file
 * names match `fonts` are preloaded: they are otherwise found only when the first text renders,
 * and until then text a system font lacks shows as boxes (Devanagari on a machine without a
 * Devanagari font). Those matching `nepaliFonts` are preloaded only for a
 * visit that starts in Nepali (src/i18n/starting-locale.ts, run in the page as the app runs it).
 *
 * The build fails on a route that would lose its preload unnoticed: a pathname that is not a plain
 * path, a module that does not exist, or one that `router` (the module whose dynamic imports are
 * the routes' modules) no longer imports.
 */
export function routePreload(options: {
  routes: Record<string, string[]>;
  router: string;
  fonts: RegExp[];
  nepaliFonts: RegExp[];
}): Plugin {
  const listed = Object.entries(options.routes).flatMap(([pathname, modules]) =>
    modules.map((module) => ({ pathname, module, id: path.resolve(module) })),
  );
  return {
    name: "gharsewa:route-preload",
    apply: "build",
    buildStart() {
      if (!existsSync(options.router))
        throw new Error(`route-preload: the router ${options.router} does not exist`);
      for (const [pathname, modules] of Object.entries(options.routes)) {
        if (!/^\/[^?#:*]*$/.test(pathname))
          throw new Error(`route-preload: "${pathname}" is not a page's path (no query or params)`);
        if (modules.length === 0)
          throw new Error(`route-preload: "${pathname}" lists no module to preload`);
      }
      for (const { pathname, module, id } of listed)
        if (!existsSync(id))
          throw new Error(
            `route-preload: ${module}, listed for "${pathname}", does not exist (moved or renamed?)`,
          );
    },
    buildEnd(error) {
      if (error) return;
      const lazy = new Set(
        this.getModuleInfo(path.resolve(options.router))?.dynamicallyImportedIds ?? [],
      );
      for (const { pathname, module, id } of listed)
        if (!lazy.has(id))
          throw new Error(
            `route-preload: ${options.router} does not import ${module}, listed for ` +
              `"${pathname}" (has the route moved to another module?)`,
          );
    },
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!bundle) return html;
        const base = "/";
        const files = Object.values(bundle) as (Chunk | Asset)[];
        const chunks = new Map(
          files.filter((f): f is Chunk => f.type === "chunk").map((c) => [c.fileName, c]),
        );
        const staticClosure = (start: Chunk, skip: Set<string>) => {
          const seen = new Set<string>();
          const visit = (name: string) => {
            if (seen.has(name) || skip.has(name)) return;
            seen.add(name);
            chunks.get(name)?.imports.forEach(visit);
          };
          visit(start.fileName);
          return seen;
        };
        const entry = [...chunks.values()].find((c) => c.isEntry);
        if (!entry) throw new Error("route-preload: the build has no entry chunk");
        const withEntry = staticClosure(entry, new Set());
        const preloads: Record<string, string[]> = {};
        const chunkOf = (module: string) => {
          const id = path.resolve(module);
          const chunk = [...chunks.values()].find((c) => c.facadeModuleId === id);
          if (!chunk) throw new Error(`route-preload: no chunk is the route module ${module}`);
          return chunk;
        };
        for (const [pathname, modules] of Object.entries(options.routes)) {
          const names = [
            ...new Set(modules.flatMap((m) => [...staticClosure(chunkOf(m), withEntry)])),
          ];
          const css = names.flatMap((n) => [...(chunks.get(n)?.viteMetadata?.importedCss ?? [])]);
          preloads[pathname] = [...names, ...css].map((n) => base + n);
        }
        const matching = (patterns: RegExp[]) =>
          files
            .filter((f) => f.type === "asset" && patterns.some((re) => re.test(f.fileName)))
            .map((f) => base + f.fileName);
        const fonts = matching(options.fonts);
        const nepaliFonts = matching(options.nepaliFonts);
        if (nepaliFonts.length !== options.nepaliFonts.length)
          throw new Error("route-preload: a Nepali font pattern matches no file, or several");
        const script =
          `<script>{const f=${JSON.stringify(preloads)}[location.pathname];` +
          `if(f)for(const h of f){const l=document.createElement("link");` +
          `if(h.endsWith(".css")){l.rel="preload";l.as="style"}else{l.rel="modulepreload";l.crossOrigin=""}` +
          `l.href=h;document.head.append(l)}` +
          `let s=null;try{s=localStorage.getItem(${JSON.stringify(LOCALE_STORAGE_KEY)})}catch{}` +
          `const n=navigator.languages;` +
          `if((${String(startingLocale)})(s,n&&n.length?n:[navigator.language])==="ne-NP")` +
          `for(const h of ${JSON.stringify(nepaliFonts)}){const l=document.createElement("link");` +
          `l.rel="preload";l.as="font";l.type="font/woff2";l.crossOrigin="";l.href=h;document.head.append(l)}}</script>`;
        const fontLinks = fonts.map(
          (href) => `<link rel="preload" as="font" type="font/woff2" href="${href}" crossorigin>`,
        );
        // Before the entry and its stylesheet (a script after a stylesheet waits for it), after the
        // head's meta tags.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error("route-preload: index.html has no module script");
        const indent = "\n    ";
        return html.slice(0, at) + [script, ...fontLinks].join(indent) + indent + html.slice(at);
      },
    },
  };
}
