/**
 * Reconnect drill in a real browser: headless Chromium (Debian's /usr/bin/chromium) opens a page that
 * loads convex/browser's bundle, subscribes to a query and shows the value. The backend is stopped
 * and restarted on the same port; the page must reconnect by itself, its subscription must resume and a
 * mutation made during the outage must be applied exactly once.
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { chromium } from "@playwright/test";
import type { Backend } from "../../local-backend/server.ts";
import { tempDir } from "./app-backend.ts";
import { startCrashBackend } from "./crash.ts";
import { emptyReconnectReport, runOutages, type ReconnectReport } from "./reconnect.ts";

/** convex/dist/browser.bundle.js: the browser client as one script defining `convex`. */
const bundle = readFileSync(
  path.resolve(
    createRequire(import.meta.url).resolve("convex/browser"),
    "../../../browser.bundle.js",
  ),
  "utf8",
);

const page = (convexUrl: string) => `<!doctype html>
<html><head><title>reconnect drill</title><script src="/convex.js"></script></head>
<body><p>Total: <output id="total">…</output></p>
<script>
  const client = new convex.ConvexClient(${JSON.stringify(convexUrl)});
  window.values = [];
  client.onUpdate("pairs:total", {}, (v) => { window.values.push(v); document.getElementById("total").textContent = String(v); });
  window.write = (key) => { window.pending = client.mutation("pairs:write", { client: "browser", key }); return true; };
</script></body></html>`;

export async function runBrowserReconnectDrill(options: {
  outages: number;
  downMs?: number;
}): Promise<ReconnectReport> {
  const { outages, downMs = 300 } = options;
  const dataDir = tempDir("gharsewa-browser-reconnect-");
  const report = emptyReconnectReport();
  let backend: Backend = await startCrashBackend(dataDir);
  const web = createServer((req, res) => {
    if (req.url === "/convex.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return void res.end(bundle);
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(page(backend.url));
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
    const shows = (n: number) =>
      tab.waitForFunction(
        (x) => (window as unknown as { values?: number[] }).values?.includes(x) === true,
        n,
        { timeout: 30_000 },
      );
    await shows(0);
    backend = await runOutages({
      backend,
      dataDir,
      outages,
      downMs,
      shown: 0,
      prefix: "browser-",
      report,
      client: {
        startWrite: async (key) => {
          await tab.evaluate(
            (k) => (window as unknown as { write(k: string): boolean }).write(k),
            key,
          );
          return () =>
            tab.evaluate(() => (window as unknown as { pending: Promise<unknown> }).pending);
        },
        shows,
        check: async (expected) => {
          const text = await tab.textContent("#total");
          return text === String(expected) ? null : `the page shows ${text}, expected ${expected}`;
        },
      },
    });
  } finally {
    await browser.close();
    await new Promise((resolve) => web.close(resolve));
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}
