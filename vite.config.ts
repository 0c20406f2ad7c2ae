import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { VitePWA } from "vite-plugin-pwa";
import { fileURLToPath } from "node:url";
import { paraglideVitePlugin } from "@inlang/paraglide-js";
import { paraglideOptions } from "./paraglide.config.ts";
import { routePreload } from "./scripts/vite-route-preload.ts";
import { shimImport } from "./scripts/vite-shim-import.ts";
import { pureComponents } from "./scripts/vite-pure-components.ts";
import { subsetFontFile } from "./scripts/vite-subset-font.ts";
import { DEVANAGARI_CHROME_TEXT } from "./src/i18n/devanagari-chrome.ts";
import { paths } from "./src/lib/paths.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [
    paraglideVitePlugin(paraglideOptions),
    // `toast` from sonner without sonner on the first paint (src/lib/lazy-toast.ts); the Toaster,
    // loaded after the first page, imports sonner itself.
    shimImport({
      source: "sonner",
      shim: "src/lib/lazy-toast.ts",
      shimmedIn: (file) => file !== here("./src/app/toaster.tsx"),
    }),
    // @convex-dev/auth's provider without convex/browser's HTTP client on the first paint: it signs
    // in and refreshes a session through it, never before the page is up (src/lib/lazy-http-client.ts).
    shimImport({
      source: "convex/browser",
      shim: "src/lib/lazy-http-client.ts",
      shimmedIn: (file) => file.endsWith("/node_modules/@convex-dev/auth/dist/react/index.js"),
    }),
    // react-router without the parts this app never renders (its framework mode).
    pureComponents(["react-router"]),
    // The Devanagari of every page's header, in its own 2 KB font (src/i18n/devanagari-chrome.ts).
    subsetFontFile({
      from: here(
        "./node_modules/@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2",
      ),
      to: here("./src/fonts/devanagari-chrome.woff2"),
      text: DEVANAGARI_CHROME_TEXT,
    }),
    react(),
    tailwindcss(),
    pwa(),
    // The pages people land on (src/app/router.tsx), and the fonts of the first paint (the brand and
    // the language chooser are Devanagari on every page, in a font small enough to ride inside the
    // stylesheet; a Nepali page is Devanagari, its headings and buttons bold).
    routePreload({
      router: "src/app/router.tsx",
      routes: {
        [paths.home()]: ["src/app/pages/home.tsx"],
        [paths.about()]: ["src/features/landing/about-page.tsx"],
        [paths.contact()]: ["src/features/landing/contact-page.tsx"],
        [paths.services()]: ["src/features/catalog/services-page.tsx"],
        [paths.serviceSearchPage()]: ["src/app/pages/service-search.tsx"],
        [paths.signup()]: ["src/app/guards.tsx", "src/features/auth/signup-page.tsx"],
        [paths.login()]: ["src/app/guards.tsx", "src/features/auth/login-page.tsx"],
        [paths.forgotPassword()]: ["src/features/auth/forgot-password-page.tsx"],
        [paths.professionalSignin()]: ["src/features/professional/signin-page.tsx"],
      },
      fonts: [
        /noto-sans-devanagari-latin-400-normal-[^/]*\.woff2$/,
        /noto-sans-devanagari-latin-600-normal-[^/]*\.woff2$/,
      ],
      nepaliFonts: [
        /noto-sans-devanagari-devanagari-400-normal-[^/]*\.woff2$/,
        /noto-sans-devanagari-devanagari-600-normal-[^/]*\.woff2$/,
      ],
    }),
  ],
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
  build: {
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The entry lists every chunk's file name (its dynamic imports' preloads): 7 characters of
        // content hash (rolldown's least for this many chunks), not 8, are as safe from collisions
        // across a few hundred files and ~180 B gzip less on every first visit.
        entryFileNames: "assets/[name]-[hash:7].js",
        // A chunk of catalogue messages alone (one shared by a few routes) goes by its hash: the entry
        // names every chunk, and a message key in each name is paid for on every first visit.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.every((id) => /src[\\/]i18n[\\/]paraglide[\\/]messages[\\/]/.test(id))
            ? "assets/m-[hash:7].js"
            : "assets/[name]-[hash:7].js",
        codeSplitting: {
          // React and Paraglide's runtime in one chunk beside the entry: they change far less often
          // than the app (a returning visitor keeps them cached across deploys), and their parts
          // (react, jsx-runtime, scheduler, the locale runtime) are not left as small shared chunks,
          // each fetched and compressed on its own.
          groups: [
            {
              name: "vendor",
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|src[\\/]i18n[\\/]paraglide[\\/]runtime/,
            },
            // Convex's client as the first page needs it, beside the entry: left in the entry, the parts
            // it shares with a chunk loaded later (convex/browser's HTTP client, src/lib/http-client.ts)
            // were split into small shared chunks, fetched and compressed on their own.
            {
              name: "convex",
              test: /node_modules[\\/](convex|@convex-dev[\\/]auth)[\\/]/,
              tags: ["$initial"],
            },
          ],
        },
      },
    },
  },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 5173 },
}));

/** src/app/pwa/ registers src/sw.ts itself, after the first page has loaded (virtual:pwa-register). */
function pwa() {
  const icon = (src: string, size: number, purpose: "any" | "maskable") => ({
    src,
    sizes: `${size}x${size}`,
    type: "image/png",
    purpose,
  });
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "src",
    filename: "sw.ts",
    injectRegister: false,
    registerType: "prompt",
    includeAssets: ["logo.svg", "pwa/badge-96.png", "pwa/apple-touch-icon-180.png"],
    injectManifest: {
      // The woff fallbacks of the fonts are for browsers that have no service workers either.
      globPatterns: ["**/*.{js,css,html,svg,png,woff2}"],
    },
    manifest: {
      id: "/",
      name: "GharSewa — घर सेवा",
      short_name: "GharSewa",
      description:
        "Hire verified electricians, plumbers, carpenters and more across Nepal. घरमै भरपर्दो सेवा।",
      lang: "en",
      dir: "ltr",
      start_url: "/",
      scope: "/",
      display: "standalone",
      orientation: "portrait",
      theme_color: "#0f766e", // --color-brand-700 in src/index.css
      background_color: "#f8fafc", // the body's bg-slate-50
      categories: ["business", "lifestyle", "utilities"],
      icons: [
        icon("/pwa/icon-192.png", 192, "any"),
        icon("/pwa/icon-512.png", 512, "any"),
        icon("/pwa/maskable-512.png", 512, "maskable"),
      ],
      shortcuts: [
        {
          name: "My bookings",
          short_name: "Bookings",
          url: "/customer/profile?tab=bookings",
          icons: [icon("/pwa/icon-192.png", 192, "any")],
        },
        {
          name: "Dashboard",
          short_name: "Dashboard",
          url: "/professional-dashboard",
          icons: [icon("/pwa/icon-192.png", 192, "any")],
        },
      ],
    },
  });
}
