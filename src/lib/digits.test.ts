import { describe, expect, it } from "vitest";
import { parseDigits, toDevanagariDigits, toLatinDigits } from "@/lib/digits";

describe("digits", () => {
  it("stores Latin digits whichever script was typed", () => {
    expect(toLatinDigits("९८४१२३४५६७")).toBe("9841234567");
    expect(toLatinDigits("+९७७-९८४१ 23")).toBe("+977-9841 23");
    expect(toLatinDigits("44600")).toBe("44600");
  });

  it("writes Devanagari digits", () => {
    expect(toDevanagariDigits("Nrs. 1,500")).toBe("Nrs. १,५००");
  });

  it("parses numbers in either script and refuses the rest", () => {
    expect(parseDigits("१,५००")).toBe(1500);
    expect(parseDigits("2500")).toBe(2500);
    expect(parseDigits("")).toBeNaN();
    expect(parseDigits("१२अ")).toBeNaN();
  });
});
