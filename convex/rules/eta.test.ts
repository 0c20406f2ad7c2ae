import { describe, expect, test } from "vitest";
import { eta, ROAD_FACTOR } from "./eta";

describe("estimated arrival", () => {
  test("straight line × road factor, at 20 km/h, rounded up to a minute", () => {
    // 0.01° of latitude is about 1.11 km: 1.56 km by road, 4.7 min at 20 km/h
    const e = eta({ lat: 27.7, lng: 85.3 }, { lat: 27.71, lng: 85.3 });
    expect(e.roadMetres).toBeCloseTo(1111.95 * ROAD_FACTOR, 0);
    expect(e.minutes).toBe(5);
  });

  test("at the door it still says a minute; farther away takes longer", () => {
    const door = { lat: 27.7, lng: 85.3 };
    expect(eta(door, door)).toEqual({ roadMetres: 0, minutes: 1 });
    expect(eta({ lat: 27.6, lng: 85.3 }, door).minutes).toBeGreaterThan(
      eta({ lat: 27.65, lng: 85.3 }, door).minutes,
    );
  });
});
