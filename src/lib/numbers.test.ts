import { describe, expect, it } from "vitest";
import { formatNumber } from "@/lib/numbers";

describe("formatNumber", () => {
  it("groups digits as Nepal writes them, to one decimal, rounding half away from zero", () => {
    expect(formatNumber(0, "en")).toBe("0");
    expect(formatNumber(999, "en")).toBe("999");
    expect(formatNumber(1500, "en")).toBe("1,500");
    expect(formatNumber(1234567, "en")).toBe("12,34,567");
    expect(formatNumber(4.25, "en")).toBe("4.3");
    expect(formatNumber(4.04, "en")).toBe("4");
    expect(formatNumber(-1234.5, "en")).toBe("-1,234.5");
    expect(formatNumber(-0.04, "en")).toBe("0");
  });

  it("writes Nepali in Devanagari digits", () => {
    expect(formatNumber(123456.7, "ne-NP")).toBe("१,२३,४५६.७");
  });
});
