import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import subsetFont from "subset-font";
import type { Plugin } from "vite";

/**
 * Writes `to`: the font file `from` cut down to the glyphs (and their shaping rules) that `text`
 * needs, as WOFF2 — before any CSS is transformed, so a stylesheet's `url()` finds it in dev and in
 * a build. The file is rewritten only when its bytes change (a dev server watching it reloads once).
 */
export function subsetFontFile(options: { from: string; to: string; text: string }): Plugin {
  return {
    name: "gharsewa:subset-font",
    async buildStart() {
      const cut = await subsetFont(await readFile(options.from), options.text, {
        targetFormat: "woff2",
      });
      const old = await readFile(options.to).catch(() => null);
      if (old?.equals(cut)) return;
      await mkdir(path.dirname(options.to), { recursive: true });
      await writeFile(options.to, cut);
    },
  };
}
