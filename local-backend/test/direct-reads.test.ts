// ctx.db's reads reach the engine as objects, not JSON (engine/convex-test-internals.ts
// writeDirectDatabase): each read still hands the function a document of its own, with every value as
// Convex stores it and the fields in Convex's order, and errors as the JSON path gave them.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type Backend } from "../server.ts";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixture-index");

/* eslint-disable @typescript-eslint/no-explicit-any -- documents of v.any() fields */
type Ctx = { db: any };

let backend: Backend;
const run = <T = any>(fn: (ctx: Ctx) => Promise<T>) =>
  backend.engine.t.run(fn as never) as Promise<T>;

beforeAll(async () => {
  backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir: tempDataDir(),
    convexDir: fixture,
  });
});
afterAll(async () => {
  await backend?.close();
  removeTempDataDirs();
});

const VALUE = {
  zeta: [1, [2, { deep: "x" }]],
  alpha: { big: 2n ** 60n, bytes: new Uint8Array([1, 2, 3]).buffer },
  negativeZero: -0,
  notANumber: NaN,
  infinite: -Infinity,
  text: "नेपाल 😀",
};

describe("direct reads", () => {
  it("each read is the function's own copy: changing one changes neither the stored document nor another read", async () => {
    const id = await run((ctx) => ctx.db.insert("things", { value: VALUE, tag: "copy" }));
    const seen = await run(async (ctx) => {
      const first = await ctx.db.get(id);
      first.value.zeta[1][1].deep = "changed";
      first.value.zeta.push(99);
      new Uint8Array(first.value.alpha.bytes)[0] = 42;
      first.tag = "changed";
      const second = await ctx.db.get(id);
      const [streamed] = await ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q: any) => q.eq("tag", "copy"))
        .collect();
      streamed.value.text = "changed";
      const again = await ctx.db.query("things").withIndex("by_tag_and_n").first();
      return {
        first,
        second,
        streamed,
        again,
        same: first === second || second.value === again.value,
      };
    });
    expect(seen.same).toBe(false);
    for (const doc of [seen.second, seen.again]) {
      expect(doc.tag).toBe("copy");
      expect(doc.value.zeta).toEqual([1, [2, { deep: "x" }]]);
      expect(new Uint8Array(doc.value.alpha.bytes)).toEqual(new Uint8Array([1, 2, 3]));
      expect(doc.value.alpha.big).toBe(2n ** 60n);
      expect(Object.is(doc.value.negativeZero, -0)).toBe(true);
      expect(doc.value.notANumber).toBeNaN();
      expect(doc.value.infinite).toBe(-Infinity);
      expect(doc.value.text).toBe("नेपाल 😀");
    }
    const stored = await run((ctx) => ctx.db.get(id));
    expect(stored.value.zeta).toEqual([1, [2, { deep: "x" }]]);
    expect(stored.tag).toBe("copy");
  });

  it("a page (paginate) is direct too: its own copies, its own writes seen, one paginate per function", async () => {
    await run(async (ctx) => {
      for (let n = 0; n < 3; n++) await ctx.db.insert("things", { value: { n }, tag: "page", n });
    });
    const seen = await run(async (ctx) => {
      await ctx.db.insert("things", { value: { n: 3 }, tag: "page", n: 3 });
      const query = () =>
        ctx.db.query("things").withIndex("by_tag_and_n", (q: any) => q.eq("tag", "page"));
      const result = await query().paginate({ numItems: 3, cursor: null });
      result.page[0].value.n = 99;
      const again = await ctx.db.get(result.page[0]._id);
      let second = "";
      try {
        await query().paginate({ numItems: 3, cursor: result.continueCursor });
      } catch (error) {
        second = (error as Error).message;
      }
      return { result, again, second };
    });
    expect(seen.result.page.map((d: any) => d.n)).toEqual([0, 1, 2]);
    expect(seen.result.isDone).toBe(false);
    expect(typeof seen.result.continueCursor).toBe("string");
    expect(seen.again.value.n).toBe(0);
    expect(seen.second).toMatch(/^Only a single paginated query \(`.paginate\(\)`\) is allowed/);
    const [last] = await run(async (ctx) => {
      const { page, isDone } = await ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q: any) => q.eq("tag", "page").gt("n", 2))
        .paginate({ numItems: 5, cursor: null });
      return [{ page, isDone }];
    });
    expect(last.page.map((d: any) => d.value)).toEqual([{ n: 3 }]);
    expect(last.isDone).toBe(true);
  });

  it("a stream reads the range as it was when it started, however the transaction writes to it meanwhile", async () => {
    const seen = await run(async (ctx) => {
      for (let n = 0; n < 3; n++) await ctx.db.insert("things", { tag: "stream", n });
      const order: number[] = [];
      for await (const doc of ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q: any) => q.eq("tag", "stream"))) {
        order.push(doc.n);
        // ahead of the stream's position: a write after it started is not part of it
        await ctx.db.insert("things", { tag: "stream", n: doc.n + 10 });
        if (doc.n === 1) {
          const rest = await ctx.db
            .query("things")
            .withIndex("by_tag_and_n", (q: any) => q.eq("tag", "stream").gt("n", 1))
            .collect();
          order.push(-rest.length);
        }
      }
      return order;
    });
    expect(seen).toEqual([0, 1, -3, 2]);
  });

  it("fields come in Convex's order (sorted by name, system fields included), as the JSON path gave them", async () => {
    const id = await run((ctx) =>
      ctx.db.insert("things", { value: { b: 1, a: { d: 1, c: 2 } }, tag: "order" }),
    );
    const doc = await run((ctx) => ctx.db.get(id));
    expect(Object.keys(doc)).toEqual(["_creationTime", "_id", "tag", "value"]);
    expect(Object.keys(doc.value)).toEqual(["a", "b"]);
    expect(Object.keys(doc.value.a)).toEqual(["c", "d"]);
  });

  it("a transaction reads its own writes directly, and a read's error is the function's to catch", async () => {
    const result = await run(async (ctx) => {
      const id = await ctx.db.insert("things", { value: 1, tag: "own" });
      await ctx.db.patch("things", id, { value: 2 });
      const patched = (await ctx.db.get(id)).value;
      const otherId = await ctx.db.insert("others", { name: "o" });
      let refused = "";
      try {
        await ctx.db.get("things", otherId);
      } catch (error) {
        refused = `${(error as Error).constructor.name}: ${(error as Error).message}`;
      }
      let closed = "";
      const query = ctx.db.query("things").withIndex("by_value");
      await query.collect();
      try {
        await query.collect();
      } catch (error) {
        closed = (error as Error).message;
      }
      return { patched, refused, closed };
    });
    expect(result.patched).toBe(2);
    expect(result.refused).toMatch(
      /^Error: Invalid argument `id`: expected to be an Id<"things">, got Id<"others"> instead\./,
    );
    expect(result.closed).toBe("This query is closed and can't emit any more values.");
  });
});
