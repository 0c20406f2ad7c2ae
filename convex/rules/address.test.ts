import { describe, expect, test } from "vitest";
import { addressToPropose, citiesNamedIn, cityOfAddress, otherCityIn, streetOnly } from "./address";
import { bookability } from "./bookability";
import { formatAmount, formatNrs } from "./money";

describe("address rules", () => {
  test("names of listed cities, as whole words", () => {
    expect(citiesNamedIn("Baneshwor-10, Kathmandu, Nepalgunj")).toEqual(["nepalgunj", "kathmandu"]);
    expect(citiesNamedIn("Ward 4")).toEqual([]);
  });

  test("an address is in the city one of its parts names by itself, with or without a ward", () => {
    expect(otherCityIn("Lakeside-6, Pokhara", "surkhet")).toBe("pokhara");
    expect(otherCityIn("Lakeside, pokhara-6", "surkhet")).toBe("pokhara");
    expect(otherCityIn("Birendranagar-6, Surkhet", "surkhet")).toBeUndefined();
    expect(cityOfAddress("Baneshwor-10, Kathmandu")).toBe("kathmandu");
    expect(cityOfAddress("Ward 4")).toBeUndefined();
  });

  test("a city's name inside a street's name is never taken for the city", () => {
    const address = "Ward 1, Surkhet Road, near Bageshwari temple";
    expect(otherCityIn(address, "nepalgunj")).toBeUndefined();
    expect(otherCityIn("Surkhet Road, Nepalgunj", "nepalgunj")).toBeUndefined();
    expect(cityOfAddress("Surkhet Road, Nepalgunj")).toBe("nepalgunj");
    expect(otherCityIn("Pokhara Marg 3\nKathmandu", "nepalgunj")).toBe("kathmandu");
  });

  test("the street without the parts naming the city", () => {
    expect(streetOnly("Baneshwor-10, Kathmandu, Nepalgunj")).toBe("Baneshwor-10");
    expect(streetOnly("Ward 1, Surkhet Road, Nepalgunj")).toBe("Ward 1, Surkhet Road");
  });

  test("a booking proposes the profile's street only when the profile is in the booking's city", () => {
    expect(addressToPropose("Baneshwor-10, Kathmandu", "nepalgunj")).toBe("");
    expect(addressToPropose("Ward 4, Tribhuvan Chowk, Nepalgunj", "nepalgunj")).toBe(
      "Ward 4, Tribhuvan Chowk",
    );
    expect(addressToPropose("Ward 4, Tribhuvan Chowk", "nepalgunj")).toBe("");
    expect(addressToPropose("Surkhet Road, Nepalgunj", "surkhet")).toBe("");
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
