import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import convexPlugin from "@convex-dev/eslint-plugin";
import globals from "globals";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { readdirSync } from "node:fs";

const features = readdirSync(`${import.meta.dirname}/src/features`);
/** A later entry for the same files replaces an earlier one's list: `also` carries it over. */
const restrict = (files, patterns, message, also = []) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }, ...also] }],
  },
});
const plainConvex = {
  group: ["@/*", "**/src/*", "**/local-backend/*"],
  message: "convex/ is plain Convex: it knows neither the web app nor the local backend.",
};

const ownLink = {
  selector:
    "ImportDeclaration[source.value=/^react-router(-dom)?$/] > ImportSpecifier[imported.name=/^(Link|NavLink)$/]",
  message:
    "Link and NavLink come from @/components/link: react-router-dom's also serve its framework mode, ~2.5 KB gzip of the landing's initial JS.",
};
const ownLazy = {
  selector: "ImportDeclaration[source.value='react'] > ImportSpecifier[imported.name='lazy']",
  message:
    "A part loads with lazyWhenOnline (@/lib/import-when-online): a React.lazy that fails to load takes its error boundary's whole tree down for the rest of the visit.",
};

/** The layering of DESIGN.md, enforced: what each part of the code may import. */
const boundaries = [
  ...features.map((feature) =>
    restrict(
      [`src/features/${feature}/**`],
      ["@/features/*", `!@/features/${feature}`, "**/features/*", `!**/features/${feature}`],
      "Features never import each other: compose them in src/app (routes).",
    ),
  ),
  restrict(
    ["src/components/**"],
    ["convex/react", "@convex/_generated/api", "@/features/*"],
    "Components are presentational: data comes in as props.",
  ),
  restrict(
    ["src/lib/**"],
    ["@/components/*", "@/features/*", "@/app/*"],
    "lib/ depends on nothing of the app.",
  ),
  restrict(["convex/**"], plainConvex.group, plainConvex.message),
  restrict(
    ["convex/rules/**"],
    ["../model/*", "../_generated/*"],
    "rules/ are plain data and pure functions, shared with the web app: they read no database.",
    [plainConvex],
  ),
  restrict(
    ["convex/model/notifications.ts", "convex/model/push.ts"],
    ["./*", "!./push", "!./pushEndpoint", "!./settings", "!./errors", "!./webPush"],
    "Notifications are the layer everything sends through: they never import the entities or flows that call them.",
    [plainConvex],
  ),
];

/**
 * No module may reach itself through its imports (dynamic `import()` included): convex/model reads as
 * layers (README.md, Layout), and a lazy chunk shares code through a module below both, not its parent.
 */
const noCycles = {
  files: ["convex/**/*.ts", "src/**/*.{ts,tsx}"],
  plugins: { "import-x": importX },
  settings: {
    "import-x/extensions": [".ts", ".tsx", ".js"],
    "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    "import-x/resolver-next": [
      createTypeScriptImportResolver({
        project: ["tsconfig.app.json", "convex/tsconfig.json"],
        noWarnOnMultipleProjects: true,
      }),
    ],
  },
  rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
};

export default tseslint.config(
  {
    ignores: [
      "dist",
      "dist-e2e",
      "**/.scratch",
      "**/.tmp-*",
      "node_modules",
      "convex/_generated",
      "src/i18n/paraglide",
      ".data*",
      "test-results",
      "playwright-report",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: [
      "local-backend/**/*.ts",
      "e2e/**/*.ts",
      "bench/**/*.ts",
      "scripts/**/*.ts",
      "*.config.ts",
    ],
    languageOptions: { globals: globals.node },
  },
  ...convexPlugin.configs.recommended,
  ...boundaries,
  noCycles,
  { files: ["src/**/*.{ts,tsx}"], rules: { "no-restricted-syntax": ["error", ownLink, ownLazy] } },
  {
    // React.lazy is called for parts by lazyWhenOnline, for pages by the router (and by their tests)
    files: ["src/lib/import-when-online.ts", "src/app/router.tsx", "src/**/*.test.tsx"],
    rules: { "no-restricted-syntax": ["error", ownLink] },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
);
