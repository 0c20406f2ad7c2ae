/**
 * Part 5 of the hostile drill: a "GIF" whose bytes are GIF magic followed by a script, uploaded with
 * `Content-Type: image/gif;x=y, text/html` (and, second, as a plain `image/gif`), made the profile
 * photo, and its URL from `users:viewer` opened in headless Chromium (if the app refuses the photo, the
 * file is still stored: its URL is then signed as `ctx.storage.getUrl` signs it, with the data
 * directory's storage secret). The script would set the title
 * and call a beacon; neither may happen. A control page with the same bytes served as text/html from
 * the drill's own server must run the script, so a silent beacon means something.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { createFileUrl } from "../../local-backend/storage.ts";
import { setPhoto, upload } from "./hostile-app.ts";
import type { HostileBackend } from "./hostile-backend.ts";

export type UploadReport = {
  /** One line per upload: refused, or opened with these headers and whether its script ran. */
  results: string[];
  scriptsRan: number;
  opened: number;
  failures: string[];
};

const payload = (beacon: string) =>
  Buffer.from(
    `GIF89a<html><head><title>inert</title></head><body>` +
      `<script>document.title="script ran";navigator.sendBeacon(${JSON.stringify(`${beacon}/beacon`)});` +
      `new Image().src=${JSON.stringify(`${beacon}/image`)};</script>` +
      `<img src="x" onerror="fetch(${JSON.stringify(`${beacon}/onerror`)},{mode:'no-cors'})"></body></html>`,
  );

/** The URL `ctx.storage.getUrl` would give for `storageId`. */
function signedFileUrl(backend: HostileBackend, storageId: string): string {
  const secret = readFileSync(path.join(backend.dataDir, "storage-secret"), "utf8").trim();
  return createFileUrl({ secret, baseUrl: () => backend.url }, storageId);
}

/** Opens `url` in a fresh page; true when the payload's script ran (title or any beacon). */
async function scriptRuns(browser: Browser, url: string, beacons: () => number): Promise<boolean> {
  const before = beacons();
  const page = await browser.newPage();
  try {
    // A file served as an attachment is a download, which Playwright reports as a failed navigation.
    await page.goto(url, { waitUntil: "load", timeout: 15_000 }).catch(() => undefined);
    await page.waitForTimeout(1000);
    const title = await page.title().catch(() => "");
    return title === "script ran" || beacons() > before;
  } finally {
    await page.close();
  }
}

export async function runUploadInBrowser(
  backend: HostileBackend,
  options: { token: string },
): Promise<UploadReport> {
  const report: UploadReport = { results: [], scriptsRan: 0, opened: 0, failures: [] };
  let hits = 0;
  const beaconServer = createServer((req, res) => {
    if (req.url === "/control") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return void res.end(payload(beaconUrl));
    }
    hits += 1;
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => beaconServer.listen(0, "127.0.0.1", resolve));
  const beaconUrl = `http://127.0.0.1:${(beaconServer.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    if (!(await scriptRuns(browser, `${beaconUrl}/control`, () => hits)))
      report.failures.push("control: the payload served as text/html did not run its script");
    for (const contentType of ["image/gif;x=y, text/html", "image/gif"]) {
      const stored = await upload(backend.url, options.token, payload(beaconUrl), contentType);
      if (!stored.storageId) {
        report.results.push(`${JSON.stringify(contentType)}: upload refused (${stored.status})`);
        continue;
      }
      let via = "the profile photo's URL";
      const photoUrl = await setPhoto(backend.url, options.token, stored.storageId).catch(
        (error: Error & { data?: { code?: string } }) => {
          via = `a signed URL (the app refused the photo: ${error.data?.code ?? error.message})`;
          return signedFileUrl(backend, stored.storageId!);
        },
      );
      const head = await fetch(photoUrl);
      await head.arrayBuffer();
      const headers = ["content-type", "x-content-type-options", "content-disposition"]
        .map((h) => `${h}: ${head.headers.get(h) ?? "-"}`)
        .join(", ");
      const ran = await scriptRuns(browser, photoUrl, () => hits);
      report.opened += 1;
      if (ran) {
        report.scriptsRan += 1;
        report.failures.push(`${JSON.stringify(contentType)}: its script ran at ${photoUrl}`);
      }
      report.results.push(
        `${JSON.stringify(contentType)}: opened via ${via}, served as ${headers}; script ${ran ? "RAN" : "did not run"}`,
      );
    }
  } finally {
    await browser.close();
    await new Promise((resolve) => beaconServer.close(resolve));
  }
  return report;
}

export const summarizeUpload = (r: UploadReport) =>
  `scripts ran in ${r.scriptsRan} of ${r.opened} files opened in Chromium; ${r.results.join("; ")}`;
