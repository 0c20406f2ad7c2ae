// Ids in Convex's own format: the encoding itself, the table numbers behind it, and what a real backend
// does with ids of the wrong table, with a bad checksum or with garbage.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeId,
  decodeVarint,
  encodeId,
  encodeVarint,
  INTERNAL_ID_BYTES,
  MAX_ID_LENGTH,
  MIN_ID_LENGTH,
  newInternalId,
  RECENT_IDS,
  tableNumberOf,
} from "../engine/ids.ts";
import { RecoveryError } from "../durability/recovery.ts";
import { Engine } from "../engine/engine.ts";
import { nativeImport } from "../engine/modules.ts";
import { TableNumbers } from "../durability/table-numbers.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, fixtureConvexDir, startTestBackend, tempDataDir } from "./helpers.ts";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const bytes = (...values: number[]) => new Uint8Array(values);
const internalId = (fill: number) => new Uint8Array(INTERNAL_ID_BYTES).fill(fill);

/** Base32 written out bit by bit, to check the encoder against and to spell ids it would not make. */
function base32(data: number[]): string {
  const bits = data.map((b) => b.toString(2).padStart(8, "0")).join("");
  const padded = bits.padEnd(Math.ceil(bits.length / 5) * 5, "0");
  return padded.replace(/[01]{5}/g, (group) => ALPHABET[parseInt(group, 2)]);
}

/** Varint bytes ++ internal id ++ fletcher16 footer (little-endian), as Convex lays out an id. */
function idBytes(varint: number[], internal: Uint8Array): number[] {
  const body = [...varint, ...internal];
  let c0 = 0;
  let c1 = 0;
  for (const b of body) {
    c0 = (c0 + b) % 256;
    c1 = (c1 + c0) % 256;
  }
  return [...body, c0, c1];
}

afterAll(closeTestBackends);

describe("id encoding", () => {
  it("reads an id a Convex deployment issued (a _storage id, table 540)", () => {
    const id = "kg27rxfv99gzp01wmph0gvt92d6hnvy6";
    const decoded = decodeId(id);
    if ("error" in decoded) throw new Error(decoded.error);
    expect(decoded.tableNumber).toBe(540);
    expect(encodeId(decoded.tableNumber, decoded.internalId)).toBe(id);
  });

  it("round-trips every varint length, at both edges, with the encoded lengths Convex has", () => {
    const cases: [number, number][] = [
      [1, 31],
      [127, 31],
      [128, 32],
      [16_383, 32],
      [16_384, 34],
      [2 ** 21 - 1, 34],
      [2 ** 21, 36],
      [2 ** 28 - 1, 36],
      [2 ** 28, 37],
      [2 ** 32 - 1, 37],
    ];
    for (const [tableNumber, length] of cases) {
      const internal = newInternalId();
      const id = encodeId(tableNumber, internal);
      expect(id).toHaveLength(length);
      expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]+$/);
      expect(decodeId(id)).toEqual({ tableNumber, internalId: internal });
      expect(tableNumberOf(id)).toBe(tableNumber);
    }
    expect([MIN_ID_LENGTH, MAX_ID_LENGTH]).toEqual([31, 37]);
    expect(() => encodeId(0, internalId(1))).toThrow(RangeError);
    expect(() => encodeId(2 ** 32, internalId(1))).toThrow(RangeError);
  });

  it("varints: seven bits a byte, low bits first, at most five bytes, at most 32 bits", () => {
    expect(encodeVarint(127)).toEqual([0x7f]);
    expect(encodeVarint(128)).toEqual([0x80, 0x01]);
    expect(encodeVarint(10_001)).toEqual([0x91, 0x4e]);
    expect(encodeVarint(2 ** 32 - 1)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(decodeVarint(bytes(0x91, 0x4e, 0xaa))).toEqual({ n: 10_001, length: 2 });
    expect(decodeVarint(bytes(0xff, 0xff, 0xff, 0xff, 0x0f))).toEqual({
      n: 2 ** 32 - 1,
      length: 5,
    });
    expect(decodeVarint(bytes(0xff, 0xff, 0xff, 0xff, 0x1f))).toBeNull(); // 33 bits
    expect(decodeVarint(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x01))).toBeNull(); // six bytes
    expect(decodeVarint(bytes(0x80, 0x80))).toBeNull(); // truncated
  });

  it("refuses any one changed character, at every position", () => {
    for (const tableNumber of [1, 540, 10_001, 2 ** 21, 2 ** 32 - 1]) {
      const id = encodeId(tableNumber, newInternalId());
      let tried = 0;
      for (let i = 0; i < id.length; i++)
        for (const c of ALPHABET) {
          if (c === id[i]) continue;
          tried += 1;
          expect(decodeId(`${id.slice(0, i)}${c}${id.slice(i + 1)}`)).toHaveProperty("error");
        }
      expect(tried).toBe(id.length * 31);
    }
  });

  it("encodes as the bytes written out bit by bit", () => {
    for (const [tableNumber, varint] of [
      [7, [0x07]],
      [540, [0x9c, 0x04]],
      [10_001, [0x91, 0x4e]],
    ] as const) {
      const internal = newInternalId();
      expect(encodeId(tableNumber, internal)).toBe(base32(idBytes([...varint], internal)));
    }
  });

  it("refuses wrong lengths, foreign characters, table number 0 and other spellings of an id", () => {
    const id = encodeId(10_001, internalId(7));
    expect(decodeId(id.slice(0, -1))).toHaveProperty("error");
    expect(decodeId(`${id}0`)).toHaveProperty("error");
    expect(decodeId(id.toUpperCase())).toHaveProperty("error");
    for (const c of "ilou-_ ") expect(decodeId(`${c}${id.slice(1)}`)).toHaveProperty("error");
    expect(decodeId("x".repeat(100_000))).toEqual({ error: "Invalid ID length 100000" });
    expect(tableNumberOf("000000000000000000000010102users")).toBeNull();
    // Well-formed bytes with a good checksum, but table number 0, or 1 spelled with two varint bytes.
    expect(decodeId(base32(idBytes([0x00], internalId(5))))).toEqual({
      error: "Invalid table number",
    });
    expect(decodeId(base32(idBytes([0x81, 0x00], internalId(5))))).toEqual({
      error: "Non-canonical ID encoding",
    });
    // The last character of a 31-character id carries two padding bits that must be zero.
    const short = encodeId(1, internalId(3));
    const last = ALPHABET.indexOf(short.at(-1)!);
    expect(last & 0b11).toBe(0);
    expect(decodeId(`${short.slice(0, -1)}${ALPHABET[last | 1]}`)).toEqual({
      error: "Non-canonical ID encoding",
    });
  });

  it("tableNumberOf answers as decodeId for ids, their neighbours and random strings", () => {
    const answer = (text: string) => {
      const decoded = decodeId(text);
      return "error" in decoded ? null : decoded.tableNumber;
    };
    const random = (length: number) =>
      Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * 32)]).join("");
    const texts: string[] = [];
    for (const tableNumber of [1, 127, 128, 540, 10_001, 2 ** 21 - 1, 2 ** 28, 2 ** 32 - 1]) {
      const id = encodeId(tableNumber, newInternalId());
      texts.push(id, id.slice(0, -1), `${id}0`, `${id.slice(0, -1)}z`, id.toUpperCase());
      for (let i = 0; i < id.length; i++)
        texts.push(`${id.slice(0, i)}${random(1)}${id.slice(i + 1)}`);
    }
    for (let length = MIN_ID_LENGTH - 1; length <= MAX_ID_LENGTH + 1; length++)
      for (let i = 0; i < 200; i++) texts.push(random(length));
    // Well-formed bytes but table number 0, an overlong varint, or a six-byte one.
    texts.push(
      base32(idBytes([0x00], internalId(5))),
      base32(idBytes([0x81, 0x00], internalId(5))),
    );
    texts.push(base32(idBytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x01], internalId(5))));
    for (const text of texts) expect([text, tableNumberOf(text)]).toEqual([text, answer(text)]);
    expect(texts.filter((t) => tableNumberOf(t) !== null).length).toBeGreaterThanOrEqual(8);
  });

  it("tableNumberOf answers the same for ids it remembers, past the memory's size too", () => {
    const ids = Array.from({ length: RECENT_IDS + 10 }, (_, i) =>
      encodeId(10_001 + (i % 3), newInternalId()),
    );
    const first = ids.map((id) => tableNumberOf(id));
    // read again: remembered ones, then ones forgotten when the memory started afresh
    expect(ids.map((id) => tableNumberOf(id))).toEqual(first);
    expect(first.slice(0, 3)).toEqual([10_001, 10_002, 10_003]);
    const damaged = `${ids[0].slice(0, -1)}${ids[0].endsWith("a") ? "b" : "a"}`;
    const decoded = decodeId(damaged);
    expect(tableNumberOf(damaged)).toBe("error" in decoded ? null : decoded.tableNumber);
  });

  it("internal ids: 14 random bytes and the day since the epoch", () => {
    const now = Date.UTC(2026, 0, 15, 12);
    const day = Math.floor(now / 86_400_000);
    const ids = Array.from({ length: 1000 }, () => newInternalId(now));
    for (const id of ids) expect([id[14], id[15]]).toEqual([day >> 8, day & 0xff]);
    expect(new Set(ids.map((id) => Buffer.from(id).toString("hex"))).size).toBe(1000);
  });
});

describe("table numbers", () => {
  it("system tables as on Convex, user tables from 10,001, kept across opens and never reused", () => {
    const dir = tempDataDir();
    const tables = TableNumbers.open(dir);
    expect([tables.numberOf("_scheduled_functions"), tables.numberOf("_storage")]).toEqual([
      539, 540,
    ]);
    tables.register(["users", "bookings"]);
    expect([tables.numberOf("bookings"), tables.numberOf("users")]).toEqual([10_001, 10_002]);
    expect(tables.numberOf("_audit")).toBe(513);
    const again = TableNumbers.open(dir);
    again.register(["aardvarks", "users"]);
    expect(again.numberOf("aardvarks")).toBe(10_003);
    expect(again.nameOf(10_001)).toBe("bookings");
    expect(again.tableOf(again.newId("users"))).toBe("users");
    expect(again.tableOf(encodeId(10_999, internalId(1)))).toBeNull();
  });

  it("a damaged tables.json refuses to start, naming the file", () => {
    const dir = tempDataDir();
    TableNumbers.open(dir).register(["users"]);
    const file = path.join(dir, "tables.json");
    writeFileSync(file, '{"checksum":"00000000","tables":[["users",10001]]}\n');
    expect(() => TableNumbers.open(dir)).toThrow(RecoveryError);
    expect(() => TableNumbers.open(dir)).toThrow(/tables\.json is damaged \(checksum mismatch\)/);
  });
});

describe("ids on a running backend", () => {
  let backend: Backend;
  let http: ConvexHttpClient;
  type Db = {
    get(...args: unknown[]): Promise<unknown>;
    patch(...args: unknown[]): Promise<void>;
    replace(...args: unknown[]): Promise<void>;
    delete(...args: unknown[]): Promise<void>;
    insert(table: string, value: unknown): Promise<string>;
    query(table: string): { collect(): Promise<Record<string, unknown>[]> };
    normalizeId(table: string, id: string): string | null;
    system: {
      get(...args: unknown[]): Promise<unknown>;
      normalizeId(t: string, id: string): string | null;
    };
  };
  const run = <T>(fn: (ctx: { db: Db }) => Promise<T>): Promise<T> =>
    backend.engine.t.run(fn as never) as Promise<T>;
  const error = (promise: Promise<unknown>) =>
    promise.then(
      () => "resolved",
      (e: Error) => e.message,
    );

  let messageId: string;
  let fileId: string;
  let storageId: string;

  beforeAll(async () => {
    backend = await startTestBackend();
    http = new ConvexHttpClient(backend.url);
    messageId = await http.mutation(anyApi.messages.send, { channel: "ids", body: "hello" });
    storageId = await backend.engine.storeBlob(new Blob(["bytes"], { type: "image/png" }));
    fileId = await run((ctx) => ctx.db.insert("files", { storageId, name: "f" }));
  });

  afterAll(() => backend.close());

  it("issues Convex ids carrying each table's number", async () => {
    const tables = TableNumbers.open(backend.dataDir);
    expect(tableNumberOf(messageId)).toBe(tables.numberOf("messages"));
    expect(tableNumberOf(fileId)).toBe(tables.numberOf("files"));
    expect(tableNumberOf(storageId)).toBe(540);
    await http.mutation(anyApi.messages.sendLater, { channel: "ids", body: "x", delayMs: 0 });
    const jobs = [...backend.engine.database.documents()].filter(
      (doc) => tableNumberOf(doc._id) === 539,
    );
    expect(jobs.map((job) => job.name)).toEqual(["messages:insertInternal"]);
    for (const doc of backend.engine.database.documents())
      expect(decodeId(doc._id)).not.toHaveProperty("error");
  });

  it("a table first written after start gets the next free number, on disk before its id exists", async () => {
    const before = TableNumbers.open(backend.dataDir);
    const expected =
      Math.max(...["counters", "files", "locations", "messages"].map((t) => before.numberOf(t))) +
      1;
    const id = await run((ctx) => ctx.db.insert("lateTable", { n: 1 }));
    expect(tableNumberOf(id)).toBe(expected);
    expect(TableNumbers.open(backend.dataDir).nameOf(expected)).toBe("lateTable");
    expect(backend.engine.database.tableOf(id)).toBe("lateTable");
  });

  it("1,000 neighbours of 50 fresh ids name no document", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++)
      ids.push(await http.mutation(anyApi.messages.send, { channel: "guess", body: `m${i}` }));
    expect(new Set(ids).size).toBe(50);
    let tried = 0;
    let hits = 0;
    for (const id of ids) {
      const { tableNumber, internalId: internal } = decodeId(id) as {
        tableNumber: number;
        internalId: Uint8Array;
      };
      for (let delta = -10; delta <= 10; delta++) {
        if (delta === 0) continue;
        const neighbour = new Uint8Array(internal);
        neighbour[13] = (neighbour[13] + delta) & 0xff; // the last random byte, before the day
        tried += 1;
        if (backend.engine.database.get(encodeId(tableNumber, neighbour)) !== null) hits += 1;
      }
    }
    expect([tried, hits]).toEqual([1000, 0]);
  });

  it("normalizeId: the id for its own table, null for another table's or a broken id", async () => {
    const broken = `${messageId.slice(0, -1)}${messageId.endsWith("0") ? "2" : "0"}`;
    expect(
      await run(async (ctx) => [
        ctx.db.normalizeId("messages", messageId),
        ctx.db.normalizeId("files", messageId),
        ctx.db.normalizeId("messages", broken),
        ctx.db.normalizeId("messages", "000000000000000000000010102messages"),
        ctx.db.normalizeId("messages", ""),
        ctx.db.normalizeId("nosuchtable", messageId),
        ctx.db.system.normalizeId("_storage", storageId),
        ctx.db.system.normalizeId("_storage", fileId),
      ]),
    ).toEqual([messageId, null, null, null, null, null, storageId, null]);
  });

  it("db.get/patch/replace/delete: a broken id is an invalid argument, another table's is refused", async () => {
    const broken = `${messageId.slice(0, 5)}${messageId[5] === "a" ? "b" : "a"}${messageId.slice(6)}`;
    const results = await run(async (ctx) => ({
      get: await ctx.db.get(messageId),
      getTyped: await ctx.db.get("messages", messageId),
      getBroken: await error(ctx.db.get(broken)),
      getGarbage: await error(ctx.db.get("not an id")),
      getOther: await error(ctx.db.get("files", messageId)),
      getStorage: await error(ctx.db.get(storageId)),
      systemGetUser: await error(ctx.db.system.get(messageId)),
      systemGet: await ctx.db.system.get("_storage", storageId),
      unknownTable: await ctx.db.get(encodeId(10_999, internalId(9))),
      patchBroken: await error(ctx.db.patch(broken, { body: "x" })),
      patchOther: await error(ctx.db.patch("files", messageId, { name: "x" })),
      replaceOther: await error(ctx.db.replace("files", messageId, { storageId, name: "x" })),
      deleteBroken: await error(ctx.db.delete(broken)),
      deleteOther: await error(ctx.db.delete("files", messageId)),
    }));
    expect(results.get).toMatchObject({ _id: messageId, body: "hello" });
    expect(results.getTyped).toEqual(results.get);
    for (const key of ["getBroken", "getGarbage", "patchBroken", "deleteBroken"] as const)
      expect(results[key]).toMatch(/Invalid argument `id`: Unable to decode ID/);
    for (const key of ["getOther", "patchOther", "replaceOther", "deleteOther"] as const)
      expect(results[key]).toMatch(/expected to be an Id<"files">, got Id<"messages"> instead/);
    expect(results.getStorage).toMatch(/System tables can only be accessed with db.system/);
    expect(results.systemGetUser).toMatch(/User tables cannot be accessed with db.system/);
    expect(results.systemGet).toMatchObject({ _id: storageId });
    expect(results.unknownTable).toBeNull();
    expect(await run(async (ctx) => ctx.db.get(messageId))).toMatchObject({ body: "hello" });
  });

  it("a query in a transaction sees its own inserts and deletes", async () => {
    const committed = await run((ctx) => ctx.db.insert("messages", { channel: "tx", body: "a" }));
    const bodies = await run(async (ctx) => {
      const list = async () =>
        (await ctx.db.query("messages").collect())
          .filter((m) => m.channel === "tx")
          .map((m) => m.body);
      const b = await ctx.db.insert("messages", { channel: "tx", body: "b" });
      const both = await list();
      await ctx.db.delete(committed);
      const afterFirst = await list();
      await ctx.db.delete(b);
      return [both, afterFirst, await list()];
    });
    expect(bodies).toEqual([["a", "b"], ["b"], []]);
  });

  it("v.id arguments accept the table's ids only", async () => {
    await http.mutation(anyApi.messages.move, { id: messageId, channel: "moved" });
    for (const id of [fileId, storageId, "not an id", messageId.toUpperCase()])
      await expect(http.mutation(anyApi.messages.move, { id, channel: "x" })).rejects.toThrow(
        /ArgumentValidationError: (Value does not match validator\.\nPath: \.id\nValue: ".*"\nValidator: v\.id\("messages"\)|Found ID ".*" from (table `files`|a system table), which does not match the table name in validator `v\.id\("messages"\)`\.Path: \.id)$/,
      );
    expect(await http.query(anyApi.files.url, { storageId })).toMatch(/\/api\/storage\//);
    await expect(http.query(anyApi.files.url, { storageId: fileId })).rejects.toThrow(
      /ArgumentValidationError: Found ID ".*" from table `files`, which does not match the table name in validator `v\.id\("_storage"\)`\.Path: \.storageId$/,
    );
  });

  it("an insert never reuses an id that exists", async () => {
    const tables = TableNumbers.open(tempDataDir());
    const hooks = { onCommit() {}, onFileStored() {}, storageUrl: () => "", uploadUrl: () => "" };
    const engine = await Engine.create(fixtureConvexDir, nativeImport, tables, hooks);
    const first = encodeId(tables.numberOf("messages"), internalId(1));
    const second = encodeId(tables.numberOf("messages"), internalId(2));
    // An id source that repeats itself, as a collision would.
    const planned = [first, first, second];
    tables.newId = () => planned.shift()!;
    const insert = () =>
      engine.t.run((ctx: { db: Db }) => ctx.db.insert("messages", { channel: "c", body: "b" }));
    try {
      expect([await insert(), await insert()]).toEqual([first, second]);
    } finally {
      engine.dispose();
    }
  });
});
