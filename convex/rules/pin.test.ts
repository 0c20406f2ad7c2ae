import { describe, expect, test } from "vitest";
import { distanceMetres, insideNepal, roundPin } from "./pin";

describe("a map pin", () => {
  test("inside Nepal is accepted, in every city and on the borders' margin", () => {
    expect(insideNepal({ lat: 27.7172, lng: 85.324 })).toBe(true); // Kathmandu
    expect(insideNepal({ lat: 28.9639, lng: 80.1778 })).toBe(true); // Mahendranagar
    expect(insideNepal({ lat: 26.35, lng: 88.2 })).toBe(true);
  });

  test("outside Nepal, or not a number, is refused", () => {
    expect(insideNepal({ lat: 28.6139, lng: 77.209 })).toBe(false); // Delhi
    expect(insideNepal({ lat: 29.6, lng: 91.1 })).toBe(false); // Lhasa
    expect(insideNepal({ lat: 26.0, lng: 85.3 })).toBe(false); // Bihar
    expect(insideNepal({ lat: Number.NaN, lng: 85.3 })).toBe(false);
    expect(insideNepal({ lat: 27.7, lng: Number.POSITIVE_INFINITY })).toBe(false);
  });

  test("is kept to about a metre", () => {
    expect(roundPin({ lat: 27.717212345678, lng: 85.3240098765 })).toEqual({
      lat: 27.71721,
      lng: 85.32401,
    });
  });

  test("distance between two pins is the great-circle distance in metres", () => {
    const ktm = { lat: 27.7172, lng: 85.324 };
    expect(distanceMetres(ktm, ktm)).toBe(0);
    // 0.01° of latitude is about 1.11 km
    expect(distanceMetres(ktm, { lat: 27.7272, lng: 85.324 })).toBeCloseTo(1112, -1);
  });
});
