// A top-level query's result is checked once, as the JSON convex/server serialised
// (engine/convex-values.ts checkResultJson): every value and validator must get the answer the check on
// values gives (checkResult), the same error text included.
import { convexToJson, v, type GenericValidator, type Value } from "convex/values";
import { describe, expect, it } from "vitest";
import {
  checkResult,
  checkResultJson,
  resultJsonFits,
  type ValidatorJson,
} from "../engine/convex-values.ts";

/** A validator's JSON form (`.json`, which convex/values keeps out of its types). */
const jsonOf = (validator: GenericValidator | null): ValidatorJson | null =>
  validator === null ? null : (validator as unknown as { json: ValidatorJson }).json;

const tableOf = (id: string) =>
  id.startsWith("user") ? "users" : id.startsWith("msg") ? "messages" : null;

function outcome(run: () => void): string {
  try {
    run();
    return "ok";
  } catch (error) {
    return (error as Error).message;
  }
}

function both(validator: GenericValidator | null, value: Value) {
  const json = jsonOf(validator);
  const encoded = convexToJson(value);
  const text = JSON.stringify(encoded);
  return {
    values: outcome(() => checkResult(json, value, "m:f", tableOf)),
    json: outcome(() => checkResultJson(json, JSON.parse(text), text, "m:f", tableOf)),
  };
}

const nested = (depth: number): Value => (depth === 0 ? 1 : [nested(depth - 1)]);
const wide = (fields: number) =>
  Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, i]));

const VALUES: Value[] = [
  null,
  0,
  -0,
  1.5,
  Number.NaN,
  -Infinity,
  5n,
  true,
  "text",
  "user1",
  "msg1",
  "$notAnEncoding",
  new Uint8Array([1, 2]).buffer,
  [],
  [1, "a"],
  [1, 2, 3],
  {},
  { a: 1 },
  { a: 1, b: "x" },
  { a: "user1", b: [5n] },
  { user1: 1, user2: 2 },
  { constructor: 1 },
  nested(64),
  nested(65),
  Array.from({ length: 8193 }, () => 0),
  wide(1025),
  { a: nested(63) },
];

const VALIDATORS: (GenericValidator | null)[] = [
  null,
  v.any(),
  v.null(),
  v.number(),
  v.int64(),
  v.boolean(),
  v.string(),
  v.bytes(),
  v.id("users"),
  v.id("messages"),
  v.literal("text"),
  v.literal(0),
  v.literal(5n),
  v.literal(true),
  v.array(v.number()),
  v.array(v.any()),
  v.array(v.union(v.number(), v.string())),
  v.object({}),
  v.object({ a: v.number() }),
  v.object({ a: v.number(), b: v.optional(v.string()) }),
  v.object({ a: v.id("users"), b: v.array(v.int64()) }),
  v.object({ a: v.any() }),
  v.record(v.string(), v.number()),
  v.record(v.id("users"), v.number()),
  v.union(v.null(), v.object({ a: v.number() })),
  v.union(v.string(), v.array(v.any())),
  v.optional(v.number()),
];

describe("checkResultJson", () => {
  it("answers as the check on values for every value and validator, error texts included", () => {
    const differences: string[] = [];
    for (const validator of VALIDATORS)
      for (const value of VALUES) {
        const { values, json } = both(validator, value);
        if (values !== json)
          differences.push(
            `${JSON.stringify(jsonOf(validator))} × ${JSON.stringify(convexToJson(value)).slice(0, 80)}: ${values} ≠ ${json}`,
          );
      }
    expect(differences).toEqual([]);
  });

  it("decides every passing result in its one walk (but an encoded literal's)", () => {
    const undecided: string[] = [];
    for (const validator of VALIDATORS)
      for (const value of VALUES) {
        const json = jsonOf(validator);
        if (both(validator, value).values !== "ok" || json?.type === "literal") continue;
        const text = JSON.stringify(convexToJson(value));
        if (!resultJsonFits(json, JSON.parse(text), text, tableOf))
          undecided.push(`${JSON.stringify(json)} × ${text.slice(0, 80)}`);
      }
    expect(undecided).toEqual([]);
  });

  it("refuses what the values check refuses: a few messages as Convex words them", () => {
    expect(both(v.object({ a: v.number() }), { a: "x" }).json).toMatch(
      /^ReturnsValidationError: Value does not match validator\.\nPath: \.a/,
    );
    expect(both(null, nested(65)).json).toMatch(/return value invalid: Value is too nested/);
    expect(both(v.id("users"), "msg1").json).toMatch(/from table `messages`/);
    // a field named like an Object.prototype member is an extra field too
    expect(both(v.object({}), { constructor: 1 }).values).toMatch(
      /Object contains extra field `constructor`/,
    );
  });

  it("a result whose JSON could be past 16 MiB is measured as values", () => {
    const big = "x".repeat(4 << 20);
    expect(both(v.string(), big).json).toBe("ok");
    expect(both(v.array(v.string()), [big, big, big, big]).json).toMatch(
      /return value is too large \(actual: 16\.00 MiB, limit: 16 MiB\)/,
    );
  });
});
