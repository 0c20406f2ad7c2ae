/**
 * Three cheap accounts flood the app's upload URLs (`files:generateUploadUrl`, POST /api/uploads)
 * with 5 MB files and never attach them, against the backend on its real ports, while its RSS is
 * sampled. First files that only begin with PNG magic bytes (noise after them): the image header
 * check refuses each (415 FILE_NOT_IMAGE) and none is stored. Then files with a valid PNG header and
 * 5 MB of noise behind it, which a header check cannot tell from a photo: each account's quota of
 * unattached uploads (30 MB) stops them (413 UPLOAD_QUOTA_FULL). Bytes on disk end at the accepted
 * files' and RSS grows ≤ 100 MB.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { solveStamp } from "../../convex/rules/signUpWork.ts";
import { PENDING_UPLOADS } from "../../convex/rules/limits.ts";
import { PNG } from "./app-backend.ts";
import type { HostileBackend } from "./hostile-backend.ts";

const FILE_BYTES = 5 * 1024 * 1024;
const mb = (bytes: number | null) => Math.round((bytes ?? 0) / 1024 / 1024);

const createDraft = makeFunctionReference<"mutation", { stamp: string }, { draft: string }>(
  "signUpDrafts:create",
);
const signInRef = makeFunctionReference<
  "action",
  { provider: string; params: Record<string, string> },
  { tokens?: { token: string } | null }
>("auth:signIn");
const generateUploadUrl = makeFunctionReference<"mutation", Record<string, never>, string>(
  "files:generateUploadUrl",
);

export type UploadFloodReport = {
  accounts: number;
  magicOnly: { sent: number; refused: number; stored: number };
  validHeader: { sent: number; stored: number; refusedByQuota: number };
  sentMb: number;
  diskMb: number;
  baselineMb: number;
  peakMb: number;
  afterMb: number;
  failures: string[];
};

/** A cheap customer account: a draft bought with one proof of work, then a sign-up; its JWT. */
async function cheapAccount(url: string, n: number): Promise<string> {
  const visitor = new ConvexHttpClient(url, { logger: false });
  const { draft } = await visitor.mutation(createDraft, { stamp: await solveStamp() });
  const tag = `${Date.now().toString(36)}${n}`;
  const result = await visitor.action(signInRef, {
    provider: "customer",
    params: {
      flow: "signUp",
      draft,
      email: `flood.${tag}@example.np`,
      password: "correct horse",
      name: `Flooder ${n}`,
      phone: `98${String(Date.now() + n * 7919).slice(-8)}`,
      address: "Ward 1, Kathmandu",
      zipCode: "44600",
    },
  });
  if (!result.tokens) throw new Error(`sign-up ${n} gave no tokens`);
  return result.tokens.token;
}

/** A 5 MB body whose first bytes are `head`, then noise. */
function fiveMb(head: Uint8Array): Buffer {
  const body = randomBytes(FILE_BYTES);
  body.set(head);
  return body;
}

/** Bytes of the stored files in the data directory (its `files` folders). */
function storedBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && path.basename(entry.parentPath) === "files") total += statSync(full).size;
  }
  return total;
}

export async function runUploadFlood(
  backend: HostileBackend,
  options: { accounts: number; magicOnly: number; validHeader: number },
): Promise<UploadFloodReport> {
  const failures: string[] = [];
  const tokens = await Promise.all(
    Array.from({ length: options.accounts }, (_, n) => cheapAccount(backend.url, n)),
  );
  const diskBefore = storedBytes(backend.dataDir);
  const baselineMb = mb(backend.rss());
  let peakMb = baselineMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, mb(backend.rss()))), 50);
  const report: UploadFloodReport = {
    accounts: options.accounts,
    magicOnly: { sent: 0, refused: 0, stored: 0 },
    validHeader: { sent: 0, stored: 0, refusedByQuota: 0 },
    sentMb: 0,
    diskMb: 0,
    baselineMb,
    peakMb,
    afterMb: 0,
    failures,
  };

  const post = async (token: string, body: Buffer) => {
    const client = new ConvexHttpClient(backend.url, { logger: false });
    client.setAuth(token);
    const target = await client.mutation(generateUploadUrl, {});
    const res = await fetch(target, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: new Uint8Array(body),
    });
    report.sentMb += body.length / 1024 / 1024;
    const answer = (await res.json().catch(() => ({}))) as { code?: string; storageId?: string };
    return { status: res.status, ...answer };
  };

  try {
    // each account in its own loop, the three at once
    await Promise.all(
      tokens.map(async (token, n) => {
        const magic = PNG.subarray(0, 8);
        for (let i = 0; i < options.magicOnly; i++) {
          const answer = await post(token, fiveMb(magic));
          report.magicOnly.sent++;
          if (answer.status === 415 && answer.code === "FILE_NOT_IMAGE") report.magicOnly.refused++;
          else if (answer.storageId !== undefined) report.magicOnly.stored++;
          else failures.push(`account ${n}, magic bytes only: ${answer.status} ${answer.code}`);
        }
        const header = PNG.subarray(0, 33); // signature and IHDR: a valid 1 × 1 header
        for (let i = 0; i < options.validHeader; i++) {
          const answer = await post(token, fiveMb(header));
          report.validHeader.sent++;
          if (answer.storageId !== undefined) report.validHeader.stored++;
          else if (answer.status === 413 && answer.code === "UPLOAD_QUOTA_FULL")
            report.validHeader.refusedByQuota++;
          else failures.push(`account ${n}, valid header: ${answer.status} ${answer.code}`);
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  report.peakMb = Math.max(peakMb, mb(backend.rss()));
  report.afterMb = mb(backend.rss());
  report.sentMb = Math.round(report.sentMb);
  report.diskMb = mb(storedBytes(backend.dataDir) - diskBefore);

  const quotaFiles = PENDING_UPLOADS.perUploader.bytes / FILE_BYTES;
  const allowed = options.accounts * Math.min(quotaFiles, options.validHeader);
  if (report.magicOnly.stored > 0)
    failures.push(`${report.magicOnly.stored} files of magic bytes and noise were stored`);
  if (report.validHeader.stored !== allowed)
    failures.push(
      `${report.validHeader.stored} files stored past the header check, not ${allowed}`,
    );
  if (report.diskMb > mb(allowed * FILE_BYTES) + 1)
    failures.push(`${report.diskMb} MB on disk, more than the quotas' ${mb(allowed * FILE_BYTES)}`);
  if (report.peakMb - baselineMb > 100)
    failures.push(`RSS grew by ${report.peakMb - baselineMb} MB during the flood`);
  return report;
}

export const summarizeUploadFlood = (r: UploadFloodReport) =>
  `${r.accounts} accounts sent ${r.sentMb} MB: magic bytes + noise ${r.magicOnly.refused}/` +
  `${r.magicOnly.sent} refused by the header check (${r.magicOnly.stored} stored); valid header + ` +
  `noise ${r.validHeader.stored}/${r.validHeader.sent} stored, ${r.validHeader.refusedByQuota} ` +
  `refused by the quota; ${r.diskMb} MB on disk; RSS ${r.baselineMb} → peak ${r.peakMb} MB ` +
  `(+${r.peakMb - r.baselineMb}), ${r.afterMb} MB after`;
