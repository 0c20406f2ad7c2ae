/**
 * Clickjacking: every answer of the web port (the app, its assets, the SPA fallback, a missing asset, a
 * refused target) must forbid other sites to show it in a frame, with both the old header browsers read
 * (`X-Frame-Options: DENY`) and CSP's `frame-ancestors 'none'`.
 */
import { request } from "node:http";
import type { HostileBackend } from "./hostile-backend.ts";

export type FramesReport = { checked: number; framable: string[] };

const TARGETS = ["/", "/index.html", "/assets/app.js", "/bookings/123", "/assets/missing.js", "/%"];

function headersOf(port: number, target: string) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: target, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

export async function runFrameCheck(backend: HostileBackend): Promise<FramesReport> {
  const framable: string[] = [];
  for (const target of TARGETS) {
    const { status, headers } = await headersOf(backend.ports.web, target);
    const xfo = String(headers["x-frame-options"] ?? "");
    const csp = String(headers["content-security-policy"] ?? "");
    if (xfo.toUpperCase() !== "DENY" || !/frame-ancestors\s+'none'/.test(csp))
      framable.push(`${target} (${status}): X-Frame-Options "${xfo}", CSP "${csp}"`);
  }
  return { checked: TARGETS.length, framable };
}

export const summarizeFrames = (r: FramesReport) =>
  `${r.checked - r.framable.length} of ${r.checked} web-port answers refuse framing`;
