import { describe, expect, test } from "vitest";
import { citiesNamedIn, fullAddress, otherCityIn, streetOnly } from "./address";
import { bookability } from "./bookability";
import { formatAmount, formatNrs } from "./money";

describe("address rules", () => {
  test("names of listed cities, as whole words", () => {
    expect(citiesNamedIn("Baneshwor-10, Kathmandu, Nepalgunj")).toEqual(["nepalgunj", "kathmandu"]);
    expect(otherCityIn("Lakeside-6, Pokhara", "surkhet")).toBe("pokhara");
    expect(otherCityIn("Birendranagar-6, Surkhet", "surkhet")).toBeUndefined();
    expect(citiesNamedIn("Ward 4")).toEqual([]);
  });

  test("the street without city names, and the city once", () => {
    expect(streetOnly("Baneshwor-10, Kathmandu, Nepalgunj")).toBe("Baneshwor-10");
    expect(fullAddress("Baneshwor-10", "Kathmandu")).toBe("Baneshwor-10, Kathmandu");
    expect(fullAddress("Baneshwor-10, kathmandu", "Kathmandu")).toBe("Baneshwor-10, kathmandu");
  });
});

describe("bookability", () => {
  test("verified and available professionals only, each refusal with its reason", () => {
    expect(bookability({ verified: true, available: true })).toEqual({ bookable: true });
    expect(bookability({ verified: false, available: true })).toMatchObject({
      bookable: false,
      code: "PROFESSIONAL_UNVERIFIED",
    });
    expect(bookability({ verified: true, available: false })).toMatchObject({
      bookable: false,
      code: "PROFESSIONAL_UNAVAILABLE",
    });
  });
});

describe("money", () => {
  test("Nepali digit grouping", () => {
    expect(formatAmount(4500)).toBe("4,500");
    expect(formatAmount(150000)).toBe("1,50,000");
    expect(formatAmount(12345678)).toBe("1,23,45,678");
    expect(formatNrs(999)).toBe("Nrs. 999");
  });
});
