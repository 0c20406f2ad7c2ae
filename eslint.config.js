import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import convexPlugin from "@convex-dev/eslint-plugin";
import globals from "globals";
import { readdirSync } from "node:fs";

const features = readdirSync(`${import.meta.dirname}/src/features`);
const restrict = (files, patterns, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }] },
});

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
  restrict(
    ["convex/**"],
    ["@/*", "**/src/*", "**/local-backend/*"],
    "convex/ is plain Convex: it knows neither the web app nor the local backend.",
  ),
];

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
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
);
