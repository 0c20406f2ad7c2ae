import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: "@", replacement: here("./src") },
      { find: "@convex", replacement: here("./convex") },
      // react-router's package exports always resolve to its development build, dev-only warnings
      // included (remix-run/react-router#14102); a production build takes the production files.
      ...(command === "build"
        ? [
            {
              find: /^react-router$/,
              replacement: here("./node_modules/react-router/dist/production/index.mjs"),
            },
            {
              find: /^react-router\/dom$/,
              replacement: here("./node_modules/react-router/dist/production/dom-export.mjs"),
            },
          ]
        : []),
    ],
  },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 5173 },
}));
