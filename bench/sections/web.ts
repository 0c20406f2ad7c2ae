/**
 * Web: a production build (`vite build --manifest`, VITE_CONVEX_URL = a fresh local backend with
 * the demo marketplace), the initial JavaScript (gzip) of the landing and search routes from the
 * manifest's static import graph, where Leaflet ends up, the JavaScript a first visit to the
 * landing loads in each language (Chromium), and Lighthouse (mobile emulation, Debian Chromium via
 * CHROME_PATH) scores for four pages served by that backend's process.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { startBenchBackend, type BenchBackend } from "../lib/backend";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

export const ROUTES = {
  landing: "src/app/pages/home.tsx",
  search: "src/app/pages/service-search.tsx",
};
export const PAGES = [
  "/",
  "/services",
  "/services/search?location=Nepalgunj&serviceName=Electrician",
  "/login",
  "/signup",
  "/professional-signin",
  "/forgot-password",
  "/about",
  "/contact",
];
export const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

export type RouteJs = {
  route: string;
  files: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Leaflet in this route's initial JS (static imports only). */
  leafletInitial: boolean;
  /** Leaflet loaded by the route module itself, statically or through its own dynamic imports. */
  leafletInRoute: boolean;
};
export type LighthouseScores = {
  page: string;
  runs: number;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
};
/** What a first visit to `/` in one language loaded before the window's load event. */
export type LandingVisit = {
  locale: "en" | "ne-NP";
  /** The document's `lang` once loaded: the language the visit was shown in. */
  shownIn: string;
  files: number;
  jsGzipBytes: number;
};
export type WebResult = {
  routes: RouteJs[];
  landingByLanguage: LandingVisit[] | { skipped: string };
  lighthouse: LighthouseScores[] | { skipped: string };
  /** A 2,000-message conversation opened at 4× CPU: navigation → the newest messages on screen. */
  longChat: { messages: number; medianMs: number; runsMs: number[] } | { skipped: string };
};

/** Files loaded before the route renders: the entry and the route module with their static imports. */
function initialFiles(manifest: Manifest, keys: string[]): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    chunk.css?.forEach((c) => css.add(c));
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return { js, css };
}

export async function buildApp(outDir: string, convexUrl: string) {
  // A child process: VITE_CONVEX_URL must be in the build's environment, and the build's CPU stays out of ours.
  await run(
    process.execPath,
    [
      path.join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--manifest",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "warn",
    ],
    {
      cwd: root,
      env: { ...process.env, VITE_CONVEX_URL: convexUrl },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Manifest;
}

/**
 * What a route module adds: its static and dynamic imports, transitively, without the entry's own
 * chunks (the entry's dynamic imports are every other route).
 */
function lazyFiles(manifest: Manifest, key: string, entryFiles: Set<string>): Set<string> {
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || files.has(chunk.file) || entryFiles.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
    chunk.dynamicImports?.forEach(visit);
  };
  visit(key);
  return files;
}

export function routeJs(outDir: string, manifest: Manifest): RouteJs[] {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const gz = (file: string) => gzipSync(readFileSync(path.join(outDir, file))).length;
  // Leaflet's source carries its version banner and this class name; the chunk holding it is Leaflet's.
  const isLeaflet = (file: string) =>
    /leaflet-container|L\.version|"leaflet-pane"/.test(
      readFileSync(path.join(outDir, file), "utf8"),
    );
  const entryFiles = initialFiles(manifest, [entry]).js;
  return Object.entries(ROUTES).map(([route, key]) => {
    const { js, css } = initialFiles(manifest, [entry, key]);
    return {
      route,
      files: js.size,
      jsGzipBytes: [...js].reduce((n, f) => n + gz(f), 0),
      cssGzipBytes: [...css].reduce((n, f) => n + gz(f), 0),
      leafletInitial: [...js].some(isLeaflet),
      leafletInRoute: [...lazyFiles(manifest, key, entryFiles)].some(isLeaflet),
    };
  });
}

async function lighthouse(
  url: string,
  chromePath: string,
): Promise<{ scores: Record<string, number>; lcpMs: number; tbtMs: number }> {
  const { stdout } = await run(
    path.join(root, "node_modules/.bin/lighthouse"),
    [
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--only-categories=${CATEGORIES.join(",")}`,
      "--form-factor=mobile",
      "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking",
    ],
    {
      env: { ...process.env, CHROME_PATH: chromePath },
      maxBuffer: 256 * 1024 * 1024,
      timeout: 180_000,
    },
  );
  const lhr = JSON.parse(stdout) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { numericValue?: number }>;
  };
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round(lhr.categories[c].score * 100)]),
    ),
    lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
  };
}

/**
 * A first visit to the landing (no stored choice: the browser's language picks the app's) in each
 * language, in Chromium: the scripts the page started fetching before its load event (entry, its
 * imports, the route's modulepreloads and chunks; not what loads after, such as the header search's
 * results or the toasts), each counted as its built file's gzip size.
 */
async function landingByLanguage(
  origin: string,
  outDir: string,
  chromePath: string,
): Promise<LandingVisit[]> {
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const visits: LandingVisit[] = [];
    for (const locale of ["en", "ne-NP"] as const) {
      const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "ne-NP" });
      const page = await context.newPage();
      await page.goto(origin + "/", { waitUntil: "load" });
      const { scripts, lang } = await page.evaluate(() => {
        const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
        return {
          lang: document.documentElement.lang,
          scripts: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
            .filter(
              (r) => r.startTime < nav.loadEventStart && new URL(r.name).pathname.endsWith(".js"),
            )
            .map((r) => new URL(r.name).pathname),
        };
      });
      await context.close();
      const files = [...new Set(scripts)];
      visits.push({
        locale,
        shownIn: lang,
        files: files.length,
        jsGzipBytes: files.reduce(
          (n, file) => n + gzipSync(readFileSync(path.join(outDir, file))).length,
          0,
        ),
      });
    }
    return visits;
  } finally {
    await browser.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function web({
  lighthouseRuns = 1,
  skipLighthouse = false,
  log = (_: string) => {},
} = {}): Promise<WebResult> {
  const backend = await startBenchBackend();
  const outDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-web-"));
  try {
    await backend.run("seed:init", { demo: true });
    const manifest = await buildApp(outDir, backend.url);
    const routes = routeJs(outDir, manifest);
    const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
    const hasChromium = existsSync(chromePath);
    const origin = hasChromium ? await backend.serve(outDir) : "";
    const byLanguage: WebResult["landingByLanguage"] = hasChromium
      ? await landingByLanguage(origin, outDir, chromePath)
      : { skipped: `no Chromium at ${chromePath} (set CHROME_PATH)` };
    let result: WebResult["lighthouse"];
    if (skipLighthouse) result = { skipped: "--no-lighthouse" };
    else if (!hasChromium) result = { skipped: `no Chromium at ${chromePath} (set CHROME_PATH)` };
    else if (!existsSync(path.join(root, "node_modules/.bin/lighthouse")))
      result = { skipped: "npm lighthouse is not installed" };
    else {
      result = [];
      for (const page of PAGES) {
        const runs: Awaited<ReturnType<typeof lighthouse>>[] = [];
        for (let i = 0; i < lighthouseRuns; i++)
          runs.push(await lighthouse(origin + page, chromePath));
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))]),
        ) as LighthouseScores["scores"];
        result.push({
          page,
          runs: runs.length,
          scores,
          lcpMs: median(runs.map((r) => r.lcpMs)),
          tbtMs: median(runs.map((r) => r.tbtMs)),
        });
        log(`  lighthouse ${page}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(", ")}`);
      }
    }
    const longChat: WebResult["longChat"] = hasChromium
      ? await openLongConversation(backend, origin, chromePath, 3)
      : { skipped: `no Chromium at ${chromePath} (set CHROME_PATH)` };
    return { routes, landingByLanguage: byLanguage, lighthouse: result, longChat };
  } finally {
    await backend.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

const CONVERSATION = 2000;

/**
 * A conversation of 2,000 messages between two demo accounts, opened on a 360 px phone at 4× CPU
 * (DevTools' CPU throttle): time from navigation to the newest message and its 29 predecessors on
 * screen, median of `runs` cold loads (the service worker and caches bypassed each time).
 */
async function openLongConversation(
  backend: BenchBackend,
  origin: string,
  chromePath: string,
  runs: number,
): Promise<{ messages: number; medianMs: number; runsMs: number[] }> {
  const customer = await backend.find("users", "email", "email", "customer3@demo.np");
  const proUser = await backend.find("users", "email", "email", "plumber.kathmandu@demo.np");
  const pro = await backend.find("professionals", "by_userId", "userId", proUser?._id);
  if (!customer || !proUser || !pro) throw new Error("the demo accounts are missing");
  const now = Date.now();
  const [bookingId] = await backend.insert("bookings", [
    {
      customerId: customer._id,
      professionalId: pro._id,
      professionalUserId: proUser._id,
      services: [],
      address: "Ward 10, New Baneshwor",
      city: "kathmandu",
      scheduledFor: now + 3_600_000,
      price: 500,
      status: "accepted",
      acceptedAt: now,
      updatedAt: now,
    },
  ]);
  for (let i = 0; i < CONVERSATION; i += 500) {
    await backend.insert(
      "chatMessages",
      Array.from({ length: Math.min(500, CONVERSATION - i) }, (_, j) => ({
        bookingId,
        senderId: (i + j) % 2 ? proUser._id : customer._id,
        text: `Message ${i + j + 1}`,
      })),
    );
  }
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      serviceWorkers: "block",
    });
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email").fill("customer3@demo.np");
    await page.getByLabel("Password", { exact: true }).fill("demo-password-1");
    await page.getByRole("radio", { name: "Customer" }).check();
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${origin}/`);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const runsMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      await page.goto(`${origin}/bookings/${bookingId}/chat`);
      const newest = `Message ${CONVERSATION}`;
      runsMs.push(
        await page
          .waitForFunction(
            (text) => {
              const log = document.querySelector('[role="log"]');
              if (!log || !log.textContent?.includes(text) || log.children.length === 0) return 0;
              return performance.now();
            },
            newest,
            { timeout: 60_000, polling: "raf" },
          )
          .then((handle) => handle.jsonValue()),
      );
    }
    return { messages: CONVERSATION, medianMs: median(runsMs), runsMs };
  } finally {
    await browser.close();
  }
}
