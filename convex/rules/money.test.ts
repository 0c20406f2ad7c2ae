import { describe, expect, test } from "vitest";
import {
  amountProblem,
  commissionOf,
  formatPaisa,
  MAX_AMOUNT_PAISA,
  paisaFromRupees,
  rupeesToPaisa,
} from "./money";

describe("paisa", () => {
  test("rupees become whole paisa", () => {
    expect(rupeesToPaisa(650)).toBe(65_000);
    expect(paisaFromRupees("450")).toBe(45_000);
    expect(paisaFromRupees("1,200.5")).toBe(120_050);
    expect(paisaFromRupees(" 0.05 ")).toBe(5);
  });

  test("what is not an amount of rupees and paisa is refused", () => {
    for (const text of ["", "-5", "1.234", "1e5", "abc", "12.", ".5", "1234567890"])
      expect(paisaFromRupees(text)).toBeNull();
  });

  test("reads as people write rupees, with paisa only when there are some", () => {
    expect(formatPaisa(110_050)).toBe("Nrs. 1,100.50");
    expect(formatPaisa(15_000_000)).toBe("Nrs. 1,50,000");
    expect(formatPaisa(5)).toBe("Nrs. 0.05");
    expect(formatPaisa(-2_500)).toBe("Nrs. -25");
  });

  test("an amount is a whole number of paisa above zero and below the cap", () => {
    expect(amountProblem(1)).toBeNull();
    expect(amountProblem(MAX_AMOUNT_PAISA)).toBeNull();
    for (const bad of [0, -1, 0.5, MAX_AMOUNT_PAISA + 1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(amountProblem(bad)).not.toBeNull();
  });

  test("the commission is rounded to whole paisa", () => {
    expect(commissionOf(110_050, 10)).toBe(11_005);
    expect(commissionOf(333, 10)).toBe(33);
    expect(commissionOf(335, 10)).toBe(34);
    expect(commissionOf(100_000, 0)).toBe(0);
  });
});
