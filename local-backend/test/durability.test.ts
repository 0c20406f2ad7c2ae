import { spawn } from "node:child_process";
import { connect, createServer, type AddressInfo } from "node:net";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, describe, expect, it } from "vitest";
import { nativeImport } from "../engine/modules.ts";
import {
  closeTestBackends,
  legacyLogLine,
  newClient,
  nextValue,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

const start = (dataDir: string) => startTestBackend({ dataDir });
const here = path.dirname(fileURLToPath(import.meta.url));

afterAll(closeTestBackends);

function freePort() {
  return new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something listens on `port` (connection attempts are refused until then). */
async function portAccepts(port: number) {
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("durability", () => {
  it("restart keeps documents with their ids and creation times, files and id counters", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    let http = new ConvexHttpClient(backend.url);
    const id1 = await http.mutation(anyApi.messages.send, { channel: "keep", body: "one" });
    const id2 = await http.mutation(anyApi.messages.send, { channel: "keep", body: "two" });
    const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
    const { storageId } = (await (
      await fetch(uploadUrl, {
        method: "POST",
        headers: { "Content-Type": "image/gif" },
        body: "kept bytes",
      })
    ).json()) as { storageId: string };
    const before = await backend.engine.t.run(
      async (ctx: { db: { get(id: string): Promise<unknown> } }) => await ctx.db.get(id1),
    );
    await backend.close();

    backend = await start(dataDir);
    http = new ConvexHttpClient(backend.url);
    expect(
      (await http.query(anyApi.messages.list, { channel: "keep" })).map(
        (m: { body: string }) => m.body,
      ),
    ).toEqual(["one", "two"]);
    expect(
      await backend.engine.t.run(
        async (ctx: { db: { get(id: string): Promise<unknown> } }) => await ctx.db.get(id1),
      ),
    ).toEqual(before);
    const file = await fetch(await http.query(anyApi.files.url, { storageId }));
    expect(file.headers.get("content-type")).toBe("image/gif");
    expect(await file.text()).toBe("kept bytes");
    const id3: string = await http.mutation(anyApi.messages.send, {
      channel: "keep",
      body: "three",
    });
    expect([id1, id2]).not.toContain(id3);
    backend.compact();
    await backend.close();

    backend = await start(dataDir);
    http = new ConvexHttpClient(backend.url);
    expect((await http.query(anyApi.messages.list, { channel: "keep" })).length).toBe(3);
    await backend.close();
  });

  it("a data directory whose log was written before records had named fields restarts whole", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    const client = newClient(backend.url);
    const http = new ConvexHttpClient(backend.url);
    await client.mutation(anyApi.messages.send, { channel: "legacy", body: "one" });
    await http.mutation(anyApi.messages.send, { channel: "legacy", body: "two" });
    const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
    const { storageId } = (await (
      await fetch(uploadUrl, {
        method: "POST",
        headers: { "Content-Type": "image/gif" },
        body: "gif",
      })
    ).json()) as { storageId: string };
    await client.close();
    const requestsBefore = backend.requests.records();
    await backend.close();

    const logFile = path.join(dataDir, "log.jsonl");
    const records = readFileSync(logFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line.slice(9)));
    writeFileSync(
      logFile,
      records
        .map((r) =>
          "storageId" in r
            ? legacyLogLine({ f: r.storageId, type: r.contentType })
            : legacyLogLine({
                ts: r.ts,
                n: r.nextDocId,
                c: r.lastCreationTime,
                w: r.writes,
                ...(r.request
                  ? { r: [r.request.sessionId, r.request.requestId, r.request.result] }
                  : {}),
              }),
        )
        .join(""),
    );
    expect(records.some((r) => r.request)).toBe(true);
    expect(records.some((r) => "storageId" in r)).toBe(true);

    backend = await start(dataDir);
    try {
      expect(backend.recovery).toEqual({ records: records.length });
      const reread = new ConvexHttpClient(backend.url);
      expect(
        (await reread.query(anyApi.messages.list, { channel: "legacy" })).map(
          (m: { body: string }) => m.body,
        ),
      ).toEqual(["one", "two"]);
      const file = await fetch(await reread.query(anyApi.files.url, { storageId }));
      expect(file.headers.get("content-type")).toBe("image/gif");
      expect(await file.text()).toBe("gif");
      expect(backend.requests.records()).toEqual(requestsBefore);
    } finally {
      await backend.close();
    }
  });

  it("parallel uploads are each stored, readable with their content type, and kept across a restart", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    let http = new ConvexHttpClient(backend.url);
    const files = Array.from({ length: 8 }, (_, i) => ({
      body: `file ${i} `.repeat(1000 * (i + 1)),
      type: i % 2 ? "image/gif" : "image/png",
    }));
    const uploads = await Promise.all(
      files.map(async (file) => {
        const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
        const res = await fetch(uploadUrl, {
          method: "POST",
          headers: { "Content-Type": file.type },
          body: file.body,
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { storageId: string }).storageId;
      }),
    );
    expect(new Set(uploads).size).toBe(files.length);
    const check = async () => {
      for (const [i, storageId] of uploads.entries()) {
        const res = await fetch(await http.query(anyApi.files.url, { storageId }));
        expect(res.headers.get("content-type")).toBe(files[i].type);
        expect(await res.text()).toBe(files[i].body);
      }
    };
    await check();
    await backend.close();

    backend = await start(dataDir);
    http = new ConvexHttpClient(backend.url);
    await check();
    await backend.close();
  });

  it("a subscribed client reconnects to the restarted server and keeps receiving updates", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    const port = Number(new URL(backend.url).port);
    const client = newClient(backend.url);
    await nextValue<unknown[]>(
      client,
      anyApi.messages.list,
      { channel: "re" },
      (v) => v.length === 0,
    );
    await backend.close();
    const update = nextValue<unknown[]>(
      client,
      anyApi.messages.list,
      { channel: "re" },
      (v) => v.length === 1,
      10_000,
    );
    backend = await startTestBackend({ port, dataDir });
    await new ConvexHttpClient(backend.url).mutation(anyApi.messages.send, {
      channel: "re",
      body: "after restart",
    });
    expect(await update).toEqual([{ body: "after restart", author: null }]);
    await client.close();
    await backend.close();
  }, 20_000);

  it("requests and WebSocket clients arriving while the backend is still loading are served once it is ready", async () => {
    const port = await freePort();
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const starting = startTestBackend({
      port,
      importer: async (file) => (await loading, nativeImport(file)),
    });
    await portAccepts(port);
    const url = `http://127.0.0.1:${port}`;
    const version = fetch(`${url}/version`).then((res) => res.text());
    const client = newClient(url);
    const list = nextValue<unknown[]>(
      client,
      anyApi.messages.list,
      { channel: "early" },
      () => true,
      10_000,
    );
    release();
    const backend = await starting;
    expect(await version).toBe("local-backend");
    expect(await list).toEqual([]);
    await client.close();
    await backend.close();
  });

  it("a function scheduled before a restart still runs after it", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    await new ConvexHttpClient(backend.url).mutation(anyApi.messages.sendLater, {
      channel: "rearm",
      body: "later",
      delayMs: 300,
    });
    await backend.close();
    backend = await start(dataDir);
    const http = new ConvexHttpClient(backend.url);
    expect(await http.query(anyApi.messages.list, { channel: "rearm" })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await http.query(anyApi.messages.list, { channel: "rearm" })).toEqual([
      { body: "later", author: null },
    ]);
    await backend.close();
  });

  it("kill -9 after N acknowledged mutations keeps all N", async () => {
    const dataDir = tempDataDir();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(here, "child-backend.ts"), dataDir],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n").find((l) => l.startsWith("{"));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
    });
    const http = new ConvexHttpClient(url);
    const n = 40;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        http.mutation(anyApi.messages.send, { channel: "crash", body: `m${i}` }),
      ),
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const backend = await start(dataDir);
    const rows = await new ConvexHttpClient(backend.url).query(anyApi.messages.list, {
      channel: "crash",
    });
    expect(rows.length).toBe(n);
    await backend.close();
  }, 30_000);

  it("a truncated log tail is reported and the complete records before it are kept", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    let http = new ConvexHttpClient(backend.url);
    for (const body of ["a", "b", "c"])
      await http.mutation(anyApi.messages.send, { channel: "tail", body });
    await backend.close();
    const logFile = path.join(dataDir, "log.jsonl");
    const lines = readFileSync(logFile, "utf8");
    appendFileSync(logFile, lines.split("\n")[0].slice(0, 40));

    backend = await start(dataDir);
    expect(backend.recovery.tailError).toMatchObject({
      reason: "truncated record (no newline)",
      bytes: 40,
    });
    http = new ConvexHttpClient(backend.url);
    expect((await http.query(anyApi.messages.list, { channel: "tail" })).length).toBe(3);
    await http.mutation(anyApi.messages.send, { channel: "tail", body: "d" });
    await backend.close();

    backend = await start(dataDir);
    expect(backend.recovery.tailError).toBeUndefined();
    expect(
      (await new ConvexHttpClient(backend.url).query(anyApi.messages.list, { channel: "tail" }))
        .length,
    ).toBe(4);
    await backend.close();
  });

  it("a corrupt record in the middle of the tail stops recovery there and is reported", async () => {
    const dataDir = tempDataDir();
    let backend = await start(dataDir);
    const http = new ConvexHttpClient(backend.url);
    for (const body of ["a", "b"])
      await http.mutation(anyApi.messages.send, { channel: "flip", body });
    await backend.close();
    const logFile = path.join(dataDir, "log.jsonl");
    const lines = readFileSync(logFile, "utf8").split("\n");
    const last = lines.length - 2;
    lines[last] = lines[last].replace('"b"', '"X"');
    writeFileSync(logFile, lines.join("\n"));
    backend = await start(dataDir);
    expect(backend.recovery.tailError?.reason).toBe("checksum mismatch");
    expect(
      (
        await new ConvexHttpClient(backend.url).query(anyApi.messages.list, { channel: "flip" })
      ).map((m: { body: string }) => m.body),
    ).toEqual(["a"]);
    await backend.close();
  });
});
