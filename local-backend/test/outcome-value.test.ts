import { convexToJson, type JSONValue } from "convex/values";
import { describe, expect, it } from "vitest";
import { outcomeValue } from "../read-tracking/query-cache.ts";

describe("outcomeValue: a cached query result handed to ctx.runQuery", () => {
  it("gives each caller its own copy, so one caller's change never reaches the next", () => {
    const cached = convexToJson([{ name: "Ram", tags: ["a"] }]);
    const first = outcomeValue(cached) as { name: string; tags: string[] }[];
    first[0].name = "changed";
    first[0].tags.push("b");
    expect(outcomeValue(cached)).toEqual([{ name: "Ram", tags: ["a"] }]);
    expect(cached).toEqual([{ name: "Ram", tags: ["a"] }]);
  });

  it("decodes Convex's encodings (int64, bytes, special floats) as jsonToConvex does", () => {
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    const cached = convexToJson({
      count: 5n,
      data: bytes,
      nan: Number.NaN,
      negativeZero: -0,
      text: "$100 is not an encoding",
    }) as JSONValue;
    const value = outcomeValue(cached) as Record<string, unknown>;
    expect(value.count).toBe(5n);
    expect(new Uint8Array(value.data as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
    expect(value.nan).toBeNaN();
    expect(Object.is(value.negativeZero, -0)).toBe(true);
    expect(value.text).toBe("$100 is not an encoding");
  });

  it("copies plain JSON exactly as parsing its text would: order, nesting, an own __proto__ field", () => {
    const cached = JSON.parse(
      '{"b":1,"a":[{"x":null,"y":[true,"s",2.5]}],"2":"two","1":"one","__proto__":{"p":1},"e":{}}',
    ) as JSONValue;
    const copy = outcomeValue(cached) as Record<string, unknown>;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(cached));
    expect(Object.keys(copy)).toEqual(["1", "2", "b", "a", "__proto__", "e"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ p: 1 });
    expect(copy.a).not.toBe((cached as Record<string, unknown>).a);
  });

  it("passes primitives through", () => {
    expect(outcomeValue(null)).toBeNull();
    expect(outcomeValue("text")).toBe("text");
    expect(outcomeValue(3)).toBe(3);
  });
});
