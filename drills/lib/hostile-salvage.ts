/**
 * Part 6 of the hostile drill: a flipped byte in the middle of the log. N acknowledged writes (one log
 * record each), one byte of record k flipped: started as `npm start` would, the backend must refuse
 * (non-zero exit, naming log.jsonl and the damaged record's byte offset); with `--salvage` it must
 * start, keep every write but the k-th, and never issue again an id that the lost record created.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { tempDir } from "./app-backend.ts";
import { crashConvexDir, dump, write } from "./crash.ts";
import { freePorts, startCli, startOutcome, type CliOptions } from "./hostile-backend.ts";

export type SalvageReport = {
  records: number;
  damaged: number;
  offset: number;
  refused: string;
  kept: number;
  lost: string[];
  reusedIds: number;
  failures: string[];
};

const keyOf = (i: number) => `salvage-${String(i).padStart(4, "0")}`;

/** The log's lines with their byte offsets. */
function lines(log: Buffer): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  let start = 0;
  for (let end = log.indexOf(10); end >= 0; end = log.indexOf(10, start)) {
    out.push({ start, text: log.subarray(start, end).toString("utf8") });
    start = end + 1;
  }
  return out;
}

/** Ids a commit record writes (`writes: [[id, doc], …]`), read leniently from its JSON. */
function writtenIds(line: string): string[] {
  try {
    const record = JSON.parse(line.slice(line.indexOf(" ") + 1)) as {
      writes?: [string, unknown][];
    };
    return (record.writes ?? []).map(([id]) => id);
  } catch {
    return [];
  }
}

async function writeRecords(options: CliOptions, from: number, to: number) {
  const backend = await startCli(options);
  try {
    const client = new ConvexHttpClient(backend.url, { logger: false });
    for (let i = from; i < to; i++)
      await client.mutation(write, { client: "salvage", key: keyOf(i) });
  } finally {
    await backend.stop();
  }
}

export async function runSalvage(options: { records: number }): Promise<SalvageReport> {
  const { records } = options;
  const damaged = Math.floor(records * 0.6);
  const dataDir = tempDir("gharsewa-hostile-salvage-");
  const base: CliOptions = {
    dataDir,
    ports: await freePorts(),
    convexDir: crashConvexDir,
    seed: false,
  };
  const report: SalvageReport = {
    records,
    damaged,
    offset: -1,
    refused: "",
    kept: 0,
    lost: [],
    reusedIds: 0,
    failures: [],
  };
  try {
    await writeRecords(base, 0, records);
    const logFile = path.join(dataDir, "log.jsonl");
    const log = readFileSync(logFile);
    const before = lines(log);
    const index = before.findIndex((l) => l.text.includes(`"${keyOf(damaged)}"`));
    if (index < 0) throw new Error(`no log record holds ${keyOf(damaged)}`);
    const target = before[index];
    const seenBefore = new Set(before.slice(0, index).flatMap((l) => writtenIds(l.text)));
    const createdThere = writtenIds(target.text).filter((id) => !seenBefore.has(id));
    const at = target.start + Math.floor(Buffer.byteLength(target.text) / 2);
    log[at] ^= log[at] === 0x0b ? 0x02 : 0x01; // never into a newline
    writeFileSync(logFile, log);
    report.offset = at;

    const refused = await startOutcome(base);
    const end = target.start + Buffer.byteLength(target.text);
    const named = [...refused.printed.matchAll(/byte (\d+)/g)].map((m) => Number(m[1]));
    if (refused.started) report.failures.push("the backend started from a log damaged mid-way");
    else {
      report.refused = `exit ${refused.code}`;
      if (refused.code === 0) report.failures.push("it refused with exit code 0");
      if (!refused.printed.includes("log.jsonl"))
        report.failures.push(`its message does not name log.jsonl: ${refused.printed.slice(-300)}`);
      if (!named.some((n) => n >= target.start && n <= end))
        report.failures.push(
          `its message names no byte offset within the damaged record (${target.start}-${end}): ${refused.printed.slice(-300)}`,
        );
      else
        report.refused += `, names log.jsonl at byte ${named.find((n) => n >= target.start && n <= end)}`;
    }

    const salvaged = await startCli({ ...base, salvage: true });
    try {
      const { firsts } = await new ConvexHttpClient(salvaged.url, { logger: false }).query(
        dump,
        {},
      );
      const present = new Set(firsts);
      for (let i = 0; i < records; i++)
        if (present.has(keyOf(i))) report.kept += 1;
        else report.lost.push(keyOf(i));
    } finally {
      await salvaged.stop();
    }
    if (report.lost.join() !== keyOf(damaged))
      report.failures.push(
        `--salvage lost ${report.lost.join(", ") || "nothing"}, expected ${keyOf(damaged)}`,
      );

    // New writes after the salvage must not get the ids the lost record had handed out.
    const salvagedLog = readFileSync(logFile);
    await writeRecords(base, records, records + 5);
    const after = lines(readFileSync(logFile)).filter((l) => l.start >= salvagedLog.length);
    const lostIds = new Set(createdThere);
    report.reusedIds = after
      .flatMap((l) => writtenIds(l.text))
      .filter((id) => lostIds.has(id)).length;
    if (report.reusedIds > 0)
      report.failures.push(`${report.reusedIds} ids of the lost record were issued again`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

export const summarizeSalvage = (r: SalvageReport) =>
  `byte ${r.offset} of record ${r.damaged + 1} of ${r.records} flipped: refused to start (${r.refused || "did not refuse"}); ` +
  `--salvage kept ${r.kept} of ${r.records}, lost ${r.lost.join(", ") || "none"}; ids reissued: ${r.reusedIds}`;
