// The pure pieces behind the Convex CLI endpoints: module paths a push may use, index diffs and the
// schema check a push must pass, the export/import ZIP format and its limits.
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { describe, expect, it } from "vitest";
import { isValidModulePath } from "../admin-api/deployed-code.ts";
import { diffIndexes, findSchemaMismatch, type SchemaJson } from "../admin-api/schema-check.ts";
import { readZip, writeZip, ZipError } from "../admin-api/zip.ts";

// export() is what the CLI's push evaluates; convex/server marks it internal.
const schemaJson = (schema: unknown) =>
  JSON.parse((schema as { export(): string }).export()) as SchemaJson;

describe("pushed module paths", () => {
  it("accepts what Convex's bundler writes and nothing that can leave the push's directory", () => {
    for (const ok of [
      "catalog.js",
      "httpRoutes/accounts.js",
      "_deps/Y2UWFHZB.js",
      "auth.config.js",
    ])
      expect(isValidModulePath(ok)).toBe(true);
    for (const bad of [
      "../x.js",
      "a/../../x.js",
      "/etc/passwd.js",
      ".hidden.js",
      "a/.b/c.js",
      "a\\b.js",
      "x.ts",
      "x.js/",
      "",
      `${"a/".repeat(17)}x.js`,
    ])
      expect(isValidModulePath(bad)).toBe(false);
  });
});

describe("a pushed schema", () => {
  const before = schemaJson(
    defineSchema({
      notes: defineTable({ body: v.string(), rank: v.number() }).index("by_rank", ["rank"]),
    }),
  );
  const after = schemaJson(
    defineSchema({
      notes: defineTable({ body: v.string(), rank: v.optional(v.number()) })
        .index("by_body", ["body"])
        .searchIndex("search_body", { searchField: "body" }),
      tags: defineTable({ note: v.id("notes") }),
    }),
  );

  it("reports the indexes it adds and removes, as the CLI prints them", () => {
    expect(diffIndexes(before, after)).toEqual({
      added_indexes: [
        { name: "notes.by_body", type: "database", fields: ["body"] },
        { name: "notes.search_body", type: "search", searchField: "body", filterFields: [] },
      ],
      removed_indexes: [{ name: "notes.by_rank", type: "database", fields: ["rank"] }],
    });
    expect(diffIndexes(after, after)).toEqual({ added_indexes: [], removed_indexes: [] });
  });

  it("is refused when a stored document does not match it, naming the document", () => {
    const tableOf = (id: string) => (id.startsWith("n") ? "notes" : null);
    const doc = (fields: Record<string, unknown>) => ({
      table: "notes",
      doc: { _id: "n1", _creationTime: 1, ...fields },
    });
    expect(findSchemaMismatch(after, [doc({ body: "a" })], tableOf)).toBeNull();
    expect(findSchemaMismatch(after, [doc({ body: 1 })], tableOf)).toEqual({
      tableName: "notes",
      error:
        'Document with ID "n1" in table "notes" does not match the schema: Expected string at path .body, found number.',
    });
    expect(findSchemaMismatch(after, [doc({ body: "a", extra: true })], tableOf)?.error).toMatch(
      /extra field `extra`/,
    );
    expect(
      findSchemaMismatch(
        after,
        [{ table: "tags", doc: { _id: "t", _creationTime: 1, note: "x1" } }],
        tableOf,
      )?.error,
    ).toMatch(/an id of table "notes"/);
    // Tables the schema does not name keep their documents unchecked, as on Convex.
    expect(
      findSchemaMismatch(
        after,
        [{ table: "other", doc: { _id: "o", _creationTime: 1, x: 1 } }],
        tableOf,
      ),
    ).toBeNull();
  });
});

describe("snapshot ZIPs", () => {
  it("round-trip through writeZip and readZip", () => {
    const files = new Map([
      ["README.md", Buffer.from("hello")],
      ["notes/documents.jsonl", Buffer.from('{"a":1}\n'.repeat(1000))],
      ["_storage/kg2abc", Buffer.from([0, 1, 2, 255])],
    ]);
    const zip = writeZip([...files].map(([name, data]) => ({ name, data })));
    expect(readZip(zip, { maxEntries: 10, maxBytes: 1 << 20 })).toEqual(files);
  });

  it("refuses an archive that would inflate past the limit before inflating it, and a damaged one", () => {
    const big = writeZip([{ name: "t/documents.jsonl", data: Buffer.alloc(1 << 20) }]);
    expect(big.length).toBeLessThan(5_000);
    expect(() => readZip(big, { maxEntries: 10, maxBytes: 1 << 16 })).toThrow(ZipError);
    expect(() => readZip(big, { maxEntries: 0, maxBytes: 1 << 30 })).toThrow(/More than 0 files/);
    // A size field that lies about what the data inflates to.
    const lying = Buffer.from(big);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(10, central + 24);
    expect(() => readZip(lying, { maxEntries: 10, maxBytes: 1 << 30 })).toThrow(ZipError);
    expect(() => readZip(Buffer.from("not a zip"), { maxEntries: 10, maxBytes: 100 })).toThrow(
      /Not a ZIP/,
    );
  });
});
