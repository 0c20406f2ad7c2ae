// Recovery that never passes off lost data as a clean start.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, describe, expect, it } from "vitest";
import { RecoveryError } from "../durability/log.ts";
import { closeTestBackends, fixtureConvexDir, startTestBackend, tempDataDir } from "./helpers.ts";

const start = (dataDir: string, salvage = false) => startTestBackend({ dataDir, salvage });
const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "cli.ts");

afterAll(closeTestBackends);

type Message = { body: string };

/** A data directory with `count` messages on channel "c", each its own log record (one per line). */
async function filled(count: number) {
  const dataDir = tempDataDir();
  const backend = await start(dataDir);
  const http = new ConvexHttpClient(backend.url);
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(await http.mutation(anyApi.messages.send, { channel: "c", body: `m${i}` }));
  await backend.close();
  return { dataDir, ids, logFile: path.join(dataDir, "log.jsonl") };
}

async function bodies(url: string) {
  return (
    (await new ConvexHttpClient(url).query(anyApi.messages.list, { channel: "c" })) as Message[]
  ).map((m) => m.body);
}

/** Flips one bit of a digit of the commit ts on line `line` (0-based); returns that line's offset and length. */
function flipByteOnLine(logFile: string, line: number): { offset: number; length: number } {
  const data = readFileSync(logFile);
  let offset = 0;
  for (let i = 0; i < line; i++) offset = data.indexOf(0x0a, offset) + 1;
  const length = data.indexOf(0x0a, offset) + 1 - offset;
  expect(data.toString("latin1", offset + 9, offset + 16)).toBe('{"ts":"');
  data[offset + 20] ^= 0x01;
  writeFileSync(logFile, data);
  return { offset, length };
}

const startError = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("the backend started");
    },
    (error: unknown) => error,
  );

describe("a damaged record in the middle of the log", () => {
  it("refuses to start, naming the file and byte offset, and changes nothing", async () => {
    const { dataDir, logFile } = await filled(10);
    const { offset } = flipByteOnLine(logFile, 6);
    const before = readFileSync(logFile);
    const error = await startError(start(dataDir));
    expect(error).toBeInstanceOf(RecoveryError);
    expect(error).toMatchObject({ file: logFile, offset });
    expect((error as Error).message).toContain(
      `${logFile} is corrupt: checksum mismatch at byte ${offset}`,
    );
    expect((error as Error).message).toContain("--salvage");
    expect(readFileSync(logFile)).toEqual(before);
    expect(readdirSync(dataDir).filter((f) => /corrupt|damaged/.test(f))).toEqual([]);
  });

  it("--salvage keeps every other record, saves the damaged one aside, and never issues an id twice", async () => {
    const { dataDir, ids, logFile } = await filled(10);
    const records = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    const messageLines = records
      .map((line, i) => [line, i] as const)
      .filter(([line]) => line.includes('"channel":"c"'));
    expect(messageLines).toHaveLength(10);
    const [damagedLine, lineNumber] = messageLines[6];
    const { offset, length } = flipByteOnLine(logFile, lineNumber);

    const backend = await start(dataDir, true);
    expect(backend.recovery.salvaged).toEqual([
      {
        file: logFile,
        regions: [{ offset, bytes: length, reason: "checksum mismatch" }],
        savedAs: expect.stringMatching(/log\.jsonl\.damaged-\d+$/),
      },
    ]);
    expect(backend.recovery.records).toBe(records.length - 1);
    const saved = readFileSync(backend.recovery.salvaged![0].savedAs, "utf8");
    expect(saved.length).toBe(damagedLine.length + 1);
    expect(saved).not.toBe(`${damagedLine}\n`); // the bytes as found, flipped byte included
    // m6 was in the damaged record
    const kept = ["m0", "m1", "m2", "m3", "m4", "m5", "m7", "m8", "m9"];
    expect(await bodies(backend.url)).toEqual(kept);
    expect(ids).not.toContain(
      await new ConvexHttpClient(backend.url).mutation(anyApi.messages.send, {
        channel: "c",
        body: "after",
      }),
    );
    await backend.close();

    const again = await start(dataDir);
    expect(again.recovery.salvaged).toBeUndefined();
    expect(await bodies(again.url)).toEqual([...kept, "after"]);
    await again.close();
  });

  it("a damaged last record is a torn tail: cut off and reported, and its ids are not issued again", async () => {
    const { dataDir, ids, logFile } = await filled(5);
    const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean).length;
    const { offset, length } = flipByteOnLine(logFile, lines - 1);
    const backend = await start(dataDir);
    expect(backend.recovery.tailError).toMatchObject({
      offset,
      bytes: length,
      reason: "checksum mismatch",
    });
    expect(await bodies(backend.url)).toEqual(["m0", "m1", "m2", "m3"]);
    expect(ids).not.toContain(
      await new ConvexHttpClient(backend.url).mutation(anyApi.messages.send, {
        channel: "c",
        body: "after",
      }),
    );
    await backend.close();
  });

  it("a newline flipped away (two records run together) loses the first of them only", async () => {
    const { dataDir, logFile } = await filled(6);
    const data = readFileSync(logFile);
    let newline = -1;
    for (let i = 0; i < 3; i++) newline = data.indexOf(0x0a, newline + 1);
    data[newline] = 0x20;
    writeFileSync(logFile, data);
    const backend = await start(dataDir, true);
    expect((await bodies(backend.url)).length).toBe(5);
    await backend.close();
  });

  it("the CLI prints the refusal without a stack trace and exits 1", async () => {
    const { dataDir, logFile } = await filled(4);
    flipByteOnLine(logFile, 2);
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        cli,
        "--data",
        dataDir,
        "--convex",
        fixtureConvexDir,
        "--port",
        "0",
        "--site-port",
        "0",
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /local-backend: cannot start: .*log\.jsonl is corrupt: checksum mismatch at byte \d+/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe("snapshots", () => {
  async function compactedTwice() {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    const send = (body: string) =>
      new ConvexHttpClient(backend.url).mutation(anyApi.messages.send, { channel: "c", body });
    await send("before first compaction");
    backend.compact();
    await send("between compactions");
    backend.compact();
    await send("after last compaction");
    await backend.close();
    backend = await start(dataDir);
    await send("after restart");
    await backend.close();
    return dataDir;
  }
  const all = [
    "before first compaction",
    "between compactions",
    "after last compaction",
    "after restart",
  ];

  it("a corrupt snapshot.json falls back to the previous snapshot plus the log, and is moved aside", async () => {
    const dataDir = await compactedTwice();
    const snapshotFile = path.join(dataDir, "snapshot.json");
    const text = readFileSync(snapshotFile, "utf8");
    writeFileSync(snapshotFile, text.replace("between compactions", "between compactionX"));
    const backend = await start(dataDir);
    expect(backend.recovery.snapshotFallback).toEqual({
      reason: "checksum mismatch",
      savedAs: expect.stringMatching(/snapshot\.json\.corrupt-\d+$/),
      restoredFrom: path.join(dataDir, "snapshot.prev.json"),
    });
    expect(await bodies(backend.url)).toEqual(all);
    await backend.close();
    const again = await start(dataDir);
    expect(again.recovery.snapshotFallback).toBeUndefined();
    expect(await bodies(again.url)).toEqual(all);
    again.compact();
    await again.close();
    const third = await start(dataDir);
    expect(await bodies(third.url)).toEqual(all);
    await third.close();
  });

  it("a crash in the middle of a compaction (snapshot.json already rotated away) loses nothing", async () => {
    const dataDir = await compactedTwice();
    rmSync(path.join(dataDir, "snapshot.json"));
    const backend = await start(dataDir);
    expect(backend.recovery.snapshotFallback).toBeUndefined();
    expect(await bodies(backend.url)).toEqual(all);
    await backend.close();
  });

  it("a corrupt snapshot with nothing to fall back to is a clear refusal, not a stack trace", async () => {
    const dataDir = await compactedTwice();
    rmSync(path.join(dataDir, "snapshot.prev.json"));
    const snapshotFile = path.join(dataDir, "snapshot.json");
    writeFileSync(snapshotFile, readFileSync(snapshotFile, "utf8").slice(0, 100));
    const error = await startError(start(dataDir));
    expect(error).toBeInstanceOf(RecoveryError);
    expect((error as Error).message).toMatch(
      /snapshot\.json is corrupt \(checksum mismatch\) and there is no previous snapshot/,
    );
    expect(existsSync(snapshotFile)).toBe(true);
  });

  it("a snapshot written before checksums existed is still read", async () => {
    const dataDir = await compactedTwice();
    const snapshotFile = path.join(dataDir, "snapshot.json");
    const { checksum, ...legacy } = JSON.parse(readFileSync(snapshotFile, "utf8")) as {
      checksum: string;
    };
    expect(checksum).toMatch(/^[0-9a-f]{8}$/);
    writeFileSync(snapshotFile, JSON.stringify(legacy));
    renameSync(path.join(dataDir, "snapshot.prev.json"), path.join(dataDir, "unused"));
    const backend = await start(dataDir);
    expect(await bodies(backend.url)).toEqual(all);
    await backend.close();
  });
});
