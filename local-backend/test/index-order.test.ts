// Index ranges read from the sorted trees (engine/indexes.ts) return exactly what Convex returns: values of
// every type in Convex's order, every range shape and its edges, both orders, pages, and the transaction's
// own writes. The oracle is Convex's own compareValues over every document of the table.
import { compareValues, convexToJson, type Value } from "convex/values";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareIndexValues, rangeFilterMatches } from "../engine/index-order.ts";
import { queryValue } from "../engine/index-query.ts";
import { startBackend, type Backend } from "../server.ts";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixture-index");

const bytes = (...b: number[]) => new Uint8Array(b).buffer;
/** One or more values of each type, with the edges of each (negative zero, NaN, surrogates, prefixes). */
const VALUES: (Value | undefined)[] = [
  undefined,
  null,
  -(2n ** 62n),
  -1n,
  0n,
  7n,
  2n ** 62n,
  -Infinity,
  -1.5,
  -0,
  0,
  Number.MIN_VALUE,
  1,
  1.5,
  2 ** 53,
  Infinity,
  NaN,
  false,
  true,
  "",
  "A",
  "B",
  "a",
  "a\u0000",
  "ab",
  "é",
  "\uffff",
  "\u{1f600}",
  "\u{1f600}x",
  bytes(),
  bytes(0),
  bytes(0, 1),
  bytes(255),
  [],
  [null],
  [1],
  [1, 2],
  [2],
  ["a"],
  [[1]],
  {},
  { a: 1 },
  { a: 1, b: 2 },
  { a: 2 },
  { b: 0 },
];

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);
const show = (v: unknown) =>
  v === undefined ? "undefined" : JSON.stringify(convexToJson(v as Value));

describe("compareIndexValues", () => {
  it("orders every pair of values as Convex's compareValues does", () => {
    for (const a of VALUES)
      for (const b of VALUES)
        expect(sign(compareIndexValues(a, b)), `${show(a)} vs ${show(b)}`).toBe(
          sign(compareValues(a as Value, b as Value)),
        );
  });

  it("puts the types in Convex's order: undefined, null, int64, float64, boolean, string, bytes, array, object", () => {
    const oneOfEach = [undefined, null, 5n, -3, false, "", bytes(1), [], {}];
    // wrapped: Array.prototype.sort puts undefined last whatever the comparator says
    const sorted = [...oneOfEach]
      .reverse()
      .map((value) => ({ value }))
      .sort((a, b) => compareIndexValues(a.value, b.value))
      .map(({ value }) => value);
    expect(sorted).toEqual(oneOfEach);
  });
});

describe("rangeFilterMatches (a commit against cached queries' ranges)", () => {
  it("decides each bound as Convex orders values, undefined and nested paths included", () => {
    const ops = {
      Eq: (c: number) => c === 0,
      Gt: (c: number) => c > 0,
      Gte: (c: number) => c >= 0,
      Lt: (c: number) => c < 0,
      Lte: (c: number) => c <= 0,
    };
    for (const bound of VALUES)
      for (const [type, accept] of Object.entries(ops)) {
        const json = bound === undefined ? { $undefined: null } : convexToJson(bound as Value);
        const flat = { type, fieldPath: "v", value: json };
        const nested = { type, fieldPath: "a.v", value: json };
        for (const value of VALUES) {
          const want = accept(compareValues(value as Value, bound as Value));
          const label = `${show(value)} ${type} ${show(bound)}`;
          expect(rangeFilterMatches({ v: value }, flat, queryValue), label).toBe(want);
          expect(rangeFilterMatches({ a: { v: value } }, nested, queryValue), label).toBe(want);
        }
      }
  });
});

type Thing = {
  _id: string;
  _creationTime: number;
  value?: Value;
  tag?: string;
  n?: number;
  nested?: { at?: Value };
};
type Range = { op: Bound; value: Value | undefined }[];
type Bound = "eq" | "gt" | "gte" | "lt" | "lte";
type RangeBuilder = Record<Bound, (field: string, value: unknown) => RangeBuilder>;
type Ctx = {
  db: {
    query(table: string): {
      withIndex(
        name: string,
        range?: (q: RangeBuilder) => unknown,
      ): {
        order(o: "asc" | "desc"): {
          collect(): Promise<Thing[]>;
          take(n: number): Promise<Thing[]>;
          paginate(opts: { numItems: number; cursor: string | null }): Promise<{
            page: Thing[];
            isDone: boolean;
            continueCursor: string;
          }>;
        };
      };
      collect(): Promise<Thing[]>;
    };
    insert(table: string, doc: Record<string, unknown>): Promise<string>;
    patch(table: string, id: string, doc: Record<string, unknown>): Promise<void>;
    delete(table: string, id: string): Promise<void>;
  };
};

const compareBy = (fields: ((t: Thing) => unknown)[]) => (a: Thing, b: Thing) => {
  for (const f of [...fields, (t: Thing) => t._creationTime, (t: Thing) => t._id]) {
    const c = compareValues(f(a) as Value, f(b) as Value);
    if (c !== 0) return c;
  }
  return 0;
};

/** What Convex returns for `range` over `field` of `all`: the matching documents in index order. */
function expected(all: Thing[], field: (t: Thing) => unknown, range: Range, order: "asc" | "desc") {
  const matches = all.filter((t) =>
    range.every(({ op, value }) => {
      const c = compareValues(field(t) as Value, value as Value);
      return op === "eq"
        ? c === 0
        : op === "gt"
          ? c > 0
          : op === "gte"
            ? c >= 0
            : op === "lt"
              ? c < 0
              : c <= 0;
    }),
  );
  matches.sort(compareBy([field]));
  if (order === "desc") matches.reverse();
  return matches.map((t) => t._id);
}

const rangeOf = (field: string, range: Range) => (q: RangeBuilder) => {
  let builder = q;
  for (const { op, value } of range) builder = builder[op](field, value);
  return builder;
};

describe("index ranges over the sorted trees", () => {
  let backend: Backend;
  let all: Thing[];
  const run = <T>(fn: (ctx: Ctx) => Promise<T>) => backend.engine.t.run(fn as never) as Promise<T>;

  beforeAll(async () => {
    backend = await startBackend({
      port: 0,
      sitePort: 0,
      dataDir: tempDataDir(),
      convexDir: fixture,
    });
    const otherId = await run((ctx) => ctx.db.insert("others", { name: "x" }));
    // each value twice (ties are ordered by _creationTime), plus ids and nested paths
    await run(async (ctx) => {
      for (const [i, value] of [...VALUES, ...VALUES, otherId].entries()) {
        await ctx.db.insert("things", {
          ...(value === undefined ? {} : { value }),
          tag: ["a", "b", undefined][i % 3],
          n: i % 4 === 0 ? undefined : (i * 7) % 11,
          nested: i % 5 === 0 ? { at: value === undefined ? undefined : value } : undefined,
        });
      }
    });
    all = await run((ctx) => ctx.db.query("things").collect());
  });

  afterAll(async () => {
    await backend?.close();
    removeTempDataDirs();
  });

  it("returns every range shape over values of every type, in both orders", async () => {
    const bounds = [...VALUES, all.at(-1)!.value];
    const ranges: Range[] = [[]];
    for (const value of bounds) {
      for (const op of ["eq", "gt", "gte", "lt", "lte"] as const) ranges.push([{ op, value }]);
    }
    const picks = [null, -1n, -0, 1, true, "a", "\u{1f600}", bytes(0), [1], { a: 1 }];
    for (const low of picks)
      for (const high of picks) {
        ranges.push([
          { op: "gt", value: low },
          { op: "lte", value: high },
        ]);
        ranges.push([
          { op: "gte", value: low },
          { op: "lt", value: high },
        ]);
      }
    const results = await run(async (ctx) => {
      const out: string[][] = [];
      for (const range of ranges)
        for (const order of ["asc", "desc"] as const) {
          const docs = await ctx.db
            .query("things")
            .withIndex("by_value", range.length ? rangeOf("value", range) : undefined)
            .order(order)
            .collect();
          out.push(docs.map((d) => d._id));
        }
      return out;
    });
    let i = 0;
    for (const range of ranges)
      for (const order of ["asc", "desc"] as const) {
        const label = `${order} ${range.map((r) => `${r.op} ${show(r.value)}`).join(", ")}`;
        expect(results[i++], label).toEqual(expected(all, (t) => t.value, range, order));
      }
  });

  it("ranges over several fields: equal prefix, then a bound on the next field; nested paths", async () => {
    const tag = (t: Thing) => t.tag;
    const n = (t: Thing) => t.n;
    const cases: { tag: string | undefined; range: Range }[] = [];
    for (const t of ["a", "b", undefined])
      for (const value of [undefined, 0, 3, 5, 10, 11])
        for (const op of ["eq", "gt", "gte", "lt", "lte"] as const)
          cases.push({ tag: t, range: [{ op, value }] });
    const results = await run(async (ctx) => {
      const out: string[][] = [];
      for (const { tag: t, range } of cases)
        for (const order of ["asc", "desc"] as const) {
          const docs = await ctx.db
            .query("things")
            .withIndex("by_tag_and_n", (q) => rangeOf("n", range)(q.eq("tag", t)))
            .order(order)
            .collect();
          out.push(docs.map((d) => d._id));
        }
      const nested = await ctx.db
        .query("things")
        .withIndex("by_nested_at", (q) => q.gt("nested.at", null))
        .order("asc")
        .collect();
      out.push(nested.map((d) => d._id));
      return out;
    });
    let i = 0;
    for (const { tag: t, range } of cases)
      for (const order of ["asc", "desc"] as const) {
        const want = all
          .filter((d) => compareValues(tag(d) as Value, t as Value) === 0)
          .filter((d) => expected([d], n, range, order).length === 1);
        want.sort(compareBy([tag, n]));
        if (order === "desc") want.reverse();
        expect(results[i++], `${show(t)} ${order} ${range[0].op} ${show(range[0].value)}`).toEqual(
          want.map((d) => d._id),
        );
      }
    expect(results[i]).toEqual(
      expected(all, (t) => t.nested?.at, [{ op: "gt", value: null }], "asc"),
    );
  });

  it("pages through an index in both orders without losing or repeating a document", async () => {
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (;;) {
        const page = await run((ctx) =>
          ctx.db
            .query("things")
            .withIndex("by_value", (q) => q.gte("value", null))
            .order(order)
            .paginate({ numItems: 7, cursor }),
        );
        seen.push(...page.page.map((d) => d._id));
        if (page.isDone) break;
        cursor = page.continueCursor;
      }
      expect(seen).toEqual(expected(all, (t) => t.value, [{ op: "gte", value: null }], order));
    }
  });

  it("take(n), first and unique stop at the limit and keep the order", async () => {
    const [three, firstDesc] = await run(async (ctx) => [
      await ctx.db
        .query("things")
        .withIndex("by_value", (q) => q.gt("value", 0))
        .order("asc")
        .take(3),
      await ctx.db.query("things").withIndex("by_value").order("desc").take(1),
    ]);
    expect(three.map((d) => d._id)).toEqual(
      expected(all, (t) => t.value, [{ op: "gt", value: 0 }], "asc").slice(0, 3),
    );
    expect(firstDesc.map((d) => d._id)).toEqual(
      expected(all, (t) => t.value, [], "desc").slice(0, 1),
    );
  });

  it("a transaction reads its own inserts, patches and deletes through its indexes; a failed one leaves none", async () => {
    const seen = await run(async (ctx) => {
      const id = await ctx.db.insert("things", { value: "zz-new", tag: "c", n: 1 });
      const afterInsert = await ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q) => q.eq("tag", "c"))
        .order("asc")
        .collect();
      await ctx.db.patch("things", id, { n: 2 });
      const afterPatch = await ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q) => q.eq("tag", "c").gt("n", 1))
        .order("asc")
        .collect();
      await ctx.db.delete("things", id);
      const afterDelete = await ctx.db
        .query("things")
        .withIndex("by_value", (q) => q.eq("value", "zz-new"))
        .order("asc")
        .collect();
      return [afterInsert.length, afterPatch.map((d) => d.n), afterDelete.length];
    });
    expect(seen).toEqual([1, [2], 0]);

    await expect(
      run(async (ctx) => {
        await ctx.db.insert("things", { value: "rolled back", tag: "d" });
        throw new Error("fails after its write");
      }),
    ).rejects.toThrow("fails after its write");
    const left = await run((ctx) =>
      ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q) => q.eq("tag", "d"))
        .order("asc")
        .collect(),
    );
    expect(left).toEqual([]);
  });

  it("indexes survive a restart: the same ranges answer the same after recovery", async () => {
    const dataDir = tempDataDir();
    const first = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: fixture });
    const runOn = <T>(b: Backend, fn: (ctx: Ctx) => Promise<T>) =>
      b.engine.t.run(fn as never) as Promise<T>;
    await runOn(first, async (ctx) => {
      for (let i = 0; i < 50; i++)
        await ctx.db.insert("things", { tag: `t${i % 5}`, n: (i * 13) % 17 });
    });
    const query = (ctx: Ctx) =>
      ctx.db
        .query("things")
        .withIndex("by_tag_and_n", (q) => q.eq("tag", "t3").gte("n", 4))
        .order("desc")
        .collect();
    const before = await runOn(first, query);
    await first.close();
    const second = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: fixture });
    const after = await runOn(second, query);
    await second.close();
    expect(after.map((d) => d._id)).toEqual(before.map((d) => d._id));
    expect(before.length).toBeGreaterThan(0);
  });
});

describe("range edges: runs of equal keys, their prefixes, pages across them, system indexes", () => {
  let backend: Backend;
  let all: Thing[];
  const run = <T>(fn: (ctx: Ctx) => Promise<T>) => backend.engine.t.run(fn as never) as Promise<T>;
  const tagAndN = (t: Thing) => [t.tag, t.n];
  /** `range` over n within tag "k", as Convex returns it. */
  const inK = (range: Range, order: "asc" | "desc") =>
    expected(
      all.filter((t) => t.tag === "k"),
      (t) => t.n,
      range,
      order,
    );

  beforeAll(async () => {
    backend = await startBackend({
      port: 0,
      sitePort: 0,
      dataDir: tempDataDir(),
      convexDir: fixture,
    });
    // a run of 25 equal keys (k, 5) between shorter ones, and the same n under the neighbouring tags
    await run(async (ctx) => {
      const rows: [string, number][] = [
        ...Array.from({ length: 5 }, () => ["k", 3] as [string, number]),
        ...Array.from({ length: 25 }, () => ["k", 5] as [string, number]),
        ...Array.from({ length: 5 }, () => ["k", 7] as [string, number]),
        ["j", 5],
        ["j", 9],
        ["l", 1],
        ["l", 5],
      ];
      // interleaved, so creation order is not index order
      for (let i = 0; i < rows.length; i++) {
        const [tag, n] = rows[(i * 17) % rows.length];
        await ctx.db.insert("things", { tag, n });
      }
    });
    all = await run((ctx) => ctx.db.query("things").collect());
    expect(new Set(all.map((t) => JSON.stringify(tagAndN(t)))).size).toBe(7);
  });

  afterAll(async () => {
    await backend?.close();
    removeTempDataDirs();
  });

  const query = (ctx: Ctx, range: Range, order: "asc" | "desc") =>
    ctx.db
      .query("things")
      .withIndex("by_tag_and_n", (q) => rangeOf("n", range)(q.eq("tag", "k")))
      .order(order);

  it("each bound at the run's key, and two-sided bounds around, inside and beside it", async () => {
    const ranges: Range[] = [];
    for (const value of [3, 5, 7])
      for (const op of ["eq", "gt", "gte", "lt", "lte"] as const) ranges.push([{ op, value }]);
    const pairs: [Bound, number, Bound, number][] = [
      ["gt", 3, "lt", 7],
      ["gte", 5, "lte", 5],
      ["gt", 5, "lt", 5],
      ["gte", 5, "lt", 5],
      ["gte", 3, "lt", 5],
      ["gt", 5, "lte", 7],
      ["gt", 4, "lt", 6],
    ];
    for (const [lowOp, low, highOp, high] of pairs)
      ranges.push([
        { op: lowOp, value: low },
        { op: highOp, value: high },
      ]);
    const results = await run(async (ctx) => {
      const out: string[][] = [];
      for (const range of ranges)
        for (const order of ["asc", "desc"] as const)
          out.push((await query(ctx, range, order).collect()).map((d) => d._id));
      return out;
    });
    let i = 0;
    for (const range of ranges)
      for (const order of ["asc", "desc"] as const) {
        const label = `tag k, ${order} ${range.map((r) => `${r.op} ${show(r.value)}`).join(", ")}`;
        expect(results[i++], label).toEqual(inK(range, order));
      }
    // the run itself: 25 documents in creation order (reversed for desc)
    expect(inK([{ op: "eq", value: 5 }], "asc")).toHaveLength(25);
  });

  it("pages split a run of equal keys without losing or repeating a document, in both orders", async () => {
    const ranges: Range[] = [
      [{ op: "eq", value: 5 }],
      [
        { op: "gt", value: 3 },
        { op: "lt", value: 7 },
      ],
      [{ op: "gte", value: 5 }],
      [],
    ];
    for (const range of ranges)
      for (const order of ["asc", "desc"] as const)
        for (const numItems of [1, 4, 7]) {
          const seen: string[] = [];
          let cursor: string | null = null;
          for (let pages = 0; ; pages++) {
            expect(pages).toBeLessThan(100);
            const page = await run((ctx) =>
              query(ctx, range, order).paginate({ numItems, cursor }),
            );
            seen.push(...page.page.map((d) => d._id));
            if (page.isDone) break;
            cursor = page.continueCursor;
          }
          expect(seen, `${order} ${numItems}/page ${JSON.stringify(range)}`).toEqual(
            inK(range, order),
          );
        }
  });

  it("a document inserted into the run between pages: after the cursor it is read, before it not", async () => {
    const range: Range = [{ op: "eq", value: 5 }];
    for (const order of ["asc", "desc"] as const) {
      const first = await run((ctx) =>
        query(ctx, range, order).paginate({ numItems: 10, cursor: null }),
      );
      // the newest of the run: last in ascending order, first in descending
      const added = await run((ctx) => ctx.db.insert("things", { tag: "k", n: 5 }));
      const rest: string[] = [];
      let cursor: string | null = first.continueCursor;
      for (;;) {
        const page = await run((ctx) =>
          query(ctx, range, order).paginate({ numItems: 10, cursor }),
        );
        rest.push(...page.page.map((d) => d._id));
        if (page.isDone) break;
        cursor = page.continueCursor;
      }
      all = await run((ctx) => ctx.db.query("things").collect());
      const now = inK(range, order);
      expect([...first.page.map((d) => d._id), ...rest]).toEqual(
        order === "asc" ? now : now.filter((id) => id !== added),
      );
      await run((ctx) => ctx.db.delete("things", added));
      all = await run((ctx) => ctx.db.query("things").collect());
    }
  });

  it("by_creation_time and by_id: ranges on the system fields, in both orders", async () => {
    const byTime = [...all].sort((a, b) => a._creationTime - b._creationTime);
    const middle = byTime[Math.floor(byTime.length / 2)];
    const byId = [...all].sort((a, b) => compareValues(a._id, b._id));
    const pivot = byId[Math.floor(byId.length / 3)];
    const results = await run(async (ctx) => {
      const docs = (name: string, range: (r: RangeBuilder) => unknown, order: "asc" | "desc") =>
        ctx.db
          .query("things")
          .withIndex(name, range)
          .order(order)
          .collect()
          .then((found) => found.map((d) => d._id));
      return {
        timeGt: await docs(
          "by_creation_time",
          (r) => r.gt("_creationTime", middle._creationTime),
          "asc",
        ),
        timeLteDesc: await docs(
          "by_creation_time",
          (r) => r.lte("_creationTime", middle._creationTime),
          "desc",
        ),
        idEq: await docs("by_id", (r) => r.eq("_id", pivot._id), "asc"),
        idGteDesc: await docs("by_id", (r) => r.gte("_id", pivot._id), "desc"),
        idLt: await docs("by_id", (r) => r.lt("_id", pivot._id), "asc"),
      };
    });
    const ids = (docs: Thing[]) => docs.map((d) => d._id);
    const at = byTime.indexOf(middle);
    const pivotAt = byId.indexOf(pivot);
    expect(results.timeGt).toEqual(ids(byTime.slice(at + 1)));
    expect(results.timeLteDesc).toEqual(ids(byTime.slice(0, at + 1)).reverse());
    expect(results.idEq).toEqual([pivot._id]);
    expect(results.idGteDesc).toEqual(ids(byId.slice(pivotAt)).reverse());
    expect(results.idLt).toEqual(ids(byId.slice(0, pivotAt)));
  });
});
