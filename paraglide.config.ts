import type { CompilerOptions } from "@inlang/paraglide-js";

/**
 * Paraglide JS compiles the message catalogues (src/i18n/messages/<area>/<locale>.json, listed in
 * project.inlang/settings.json) into typed message functions in src/i18n/paraglide/ (generated, not
 * committed). The Vite plugin compiles on dev, build and the web tests; `npm run i18n` (run before
 * lint, typecheck and test) compiles for tsc and ESLint. The locale comes from src/i18n/locale.ts
 * (overwriteGetLocale), so paraglide's own strategies are reduced to the base locale.
 */
export const paraglideOptions: CompilerOptions = {
  project: "./project.inlang",
  outdir: "./src/i18n/paraglide",
  strategy: ["baseLocale"],
  isServer: "false",
  emitTsDeclarations: true,
  emitReadme: false,
};
