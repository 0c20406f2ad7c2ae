// Renders the app's PNG icons (public/pwa/) from the house mark in public/logo.svg with the Chromium
// that e2e uses: `npx tsx scripts/pwa-icons.ts`. The PNGs are committed; run this after changing the mark.
import { writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const BRAND = "#0f766e"; // --color-brand-700 in src/index.css, the manifest's theme colour
const HOUSE = "M12 32 32 14l20 18v18a2 2 0 0 1-2 2H38V38H26v14H14a2 2 0 0 1-2-2z";
const DOT = '<circle cx="32" cy="28" r="4" fill="#f59e0b"/>';

/** The mark drawn in a 64×64 box, scaled by `scale` around the centre. */
const mark = (scale: number, fill = "#fff", dot = DOT) =>
  `<g transform="translate(32 32) scale(${scale}) translate(-32 -33)"><path d="${HOUSE}" fill="${fill}"/>${dot}</g>`;

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="100%" height="100%">${body}</svg>`;

const ICONS: { file: string; size: number; svg: string }[] = [
  // "any": the rounded tile of logo.svg
  {
    file: "icon-192.png",
    size: 192,
    svg: svg(`<rect width="64" height="64" rx="14" fill="${BRAND}"/>${mark(1)}`),
  },
  {
    file: "icon-512.png",
    size: 512,
    svg: svg(`<rect width="64" height="64" rx="14" fill="${BRAND}"/>${mark(1)}`),
  },
  // "maskable": full bleed, the mark inside the 80% safe zone
  {
    file: "maskable-512.png",
    size: 512,
    svg: svg(`<rect width="64" height="64" fill="${BRAND}"/>${mark(0.75)}`),
  },
  {
    file: "apple-touch-icon-180.png",
    size: 180,
    svg: svg(`<rect width="64" height="64" fill="${BRAND}"/>${mark(0.85)}`),
  },
  // Android's status-bar badge: only the alpha channel counts
  { file: "badge-96.png", size: 96, svg: svg(mark(1.15, "#fff", "")) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.svg}</body></html>`,
    );
    writeFileSync(`public/pwa/${icon.file}`, await page.screenshot({ omitBackground: true }));
    await page.close();
  }
} finally {
  await browser.close();
}
