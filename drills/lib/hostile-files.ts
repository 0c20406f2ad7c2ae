/**
 * Stored files must live on disk, not in memory: `count` files of 5 MB go to the backend's upload URL
 * (`ctx.storage.generateUploadUrl`'s, signed with the data directory's storage secret, as the backend
 * signs it), four at a time, while its RSS is sampled; then it is restarted on the same data and its RSS
 * read once it serves. Growth during the uploads ≤ 100 MB; RSS after the restart ≤ 300 MB; a file read
 * back after the restart has its bytes.
 */
import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCli, type CliOptions, type HostileBackend } from "./hostile-backend.ts";

export type FilesReport = {
  stored: number;
  storedMb: number;
  baselineMb: number;
  peakMb: number;
  restartMb: number;
  readBack: boolean;
  failures: string[];
};

const FILE_BYTES = 5 * 1024 * 1024;
const mb = (bytes: number | null) => Math.round((bytes ?? 0) / 1024 / 1024);

function uploadUrl(backend: HostileBackend): string {
  const secret = readFileSync(path.join(backend.dataDir, "storage-secret"), "utf8").trim();
  const expiry = String(Date.now() + 60 * 60 * 1000);
  const signature = createHmac("sha256", secret).update(`upload:${expiry}`).digest("base64url");
  return `${backend.url}/api/storage/upload?token=${expiry}.${signature}`;
}

export async function runFileStorage(options: CliOptions, count: number): Promise<FilesReport> {
  let backend = await startCli(options);
  const failures: string[] = [];
  const url = uploadUrl(backend);
  const baselineMb = mb(backend.rss());
  let peakMb = baselineMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, mb(backend.rss()))), 50);
  const ids: string[] = [];
  const first = randomBytes(FILE_BYTES);
  try {
    for (let i = 0; i < count; i += 4) {
      await Promise.all(
        [0, 1, 2, 3].map(async (k) => {
          if (i + k >= count) return;
          const body = i + k === 0 ? first : randomBytes(FILE_BYTES);
          const res = await fetch(url, {
            method: "POST",
            headers: { "Content-Type": "image/png" },
            body,
          });
          const answer = (await res.json()) as { storageId?: string };
          if (answer.storageId) ids[i + k] = answer.storageId;
          else failures.push(`upload ${i + k}: ${res.status} ${JSON.stringify(answer)}`);
        }),
      );
    }
  } finally {
    clearInterval(sampler);
  }
  peakMb = Math.max(peakMb, mb(backend.rss()));
  const firstId = ids[0];
  await backend.stop();
  backend = await startCli({ ...options, seed: false });
  let restartMb: number;
  let readBack: boolean;
  try {
    restartMb = mb(backend.rss());
    const fileUrl = `${backend.url}/api/storage/${encodeURIComponent(firstId)}?token=${createHmac(
      "sha256",
      readFileSync(path.join(backend.dataDir, "storage-secret"), "utf8").trim(),
    )
      .update(`file:${firstId}`)
      .digest("base64url")}`;
    const res = await fetch(fileUrl);
    readBack = res.status === 200 && Buffer.from(await res.arrayBuffer()).equals(first);
  } finally {
    await backend.stop();
  }
  if (peakMb - baselineMb > 100)
    failures.push(`RSS grew by ${peakMb - baselineMb} MB while uploading`);
  if (restartMb > 300) failures.push(`RSS after the restart is ${restartMb} MB (at most 300)`);
  if (!readBack) failures.push("the first file did not read back whole after the restart");
  return {
    stored: ids.filter(Boolean).length,
    storedMb: Math.round((ids.filter(Boolean).length * FILE_BYTES) / 1024 / 1024),
    baselineMb,
    peakMb,
    restartMb,
    readBack,
    failures,
  };
}

export const summarizeFiles = (r: FilesReport) =>
  `${r.stored} files (${r.storedMb} MB): RSS ${r.baselineMb} → peak ${r.peakMb} MB while uploading; ` +
  `${r.restartMb} MB after a restart; first file read back ${r.readBack ? "whole" : "NOT whole"}`;
