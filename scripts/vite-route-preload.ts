import path from "node:path";
import type { Plugin } from "vite";

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
 * module file). Fonts whose file names match `fonts` are preloaded: they are otherwise found only
 * when the first text renders.
 */
export function routePreload(options: { routes: Record<string, string>; fonts: RegExp[] }): Plugin {
  return {
    name: "gharsewa:route-preload",
    apply: "build",
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
        for (const [pathname, module] of Object.entries(options.routes)) {
          const id = path.resolve(module);
          const chunk = [...chunks.values()].find((c) => c.facadeModuleId === id);
          if (!chunk) throw new Error(`route-preload: no chunk is the route module ${module}`);
          const names = [...staticClosure(chunk, withEntry)];
          const css = names.flatMap((n) => [...(chunks.get(n)?.viteMetadata?.importedCss ?? [])]);
          preloads[pathname] = [...names, ...css].map((n) => base + n);
        }
        const fonts = files
          .filter((f) => f.type === "asset" && options.fonts.some((re) => re.test(f.fileName)))
          .map((f) => base + f.fileName);
        const script =
          `<script>{const f=${JSON.stringify(preloads)}[location.pathname];` +
          `if(f)for(const h of f){const l=document.createElement("link");` +
          `if(h.endsWith(".css")){l.rel="preload";l.as="style"}else{l.rel="modulepreload";l.crossOrigin=""}` +
          `l.href=h;document.head.append(l)}}</script>`;
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
