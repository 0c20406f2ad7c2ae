import { describe, expect, it } from "vitest";
import {
  distanceM,
  LOCATION_THROTTLE,
  shouldSendPosition,
  type Fix,
} from "@/features/professional/location-throttle";

const KTM: Fix = { lat: 27.7172, lng: 85.324, at: 1_000_000 };
/** About `metres` north of KTM, `ms` later. */
function moved(metres: number, ms: number): Fix {
  return { lat: KTM.lat + metres / 111_195, lng: KTM.lng, at: KTM.at + ms };
}

describe("distanceM", () => {
  it("is zero for the same point and about 111 km per degree of latitude", () => {
    expect(distanceM(KTM, KTM)).toBe(0);
    expect(distanceM({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195, -1);
  });

  it("measures short moves to within a few centimetres", () => {
    expect(distanceM(KTM, moved(10, 0))).toBeCloseTo(10, 1);
  });
});

describe("shouldSendPosition", () => {
  it("sends the first fix", () => {
    expect(shouldSendPosition(null, KTM)).toBe(true);
  });

  it("sends after moving at least 10 m", () => {
    expect(shouldSendPosition(KTM, moved(10.5, 2_000))).toBe(true);
    expect(shouldSendPosition(KTM, moved(50, 5_000))).toBe(true);
  });

  it("holds small moves until 15 s have passed", () => {
    expect(shouldSendPosition(KTM, moved(3, 2_000))).toBe(false);
    expect(shouldSendPosition(KTM, moved(0, 14_999))).toBe(false);
    expect(shouldSendPosition(KTM, moved(0, LOCATION_THROTTLE.maxIntervalMs))).toBe(true);
    expect(shouldSendPosition(KTM, moved(3, 20_000))).toBe(true);
  });

  it("never sends more than once a second, however far the move", () => {
    expect(shouldSendPosition(KTM, moved(500, 999))).toBe(false);
    expect(shouldSendPosition(KTM, moved(500, 1_000))).toBe(false);
    expect(shouldSendPosition(KTM, moved(500, 0))).toBe(false);
    expect(shouldSendPosition(KTM, moved(500, LOCATION_THROTTLE.minIntervalMs))).toBe(true);
  });

  it("treats a clock that went backwards as too soon", () => {
    expect(shouldSendPosition(KTM, moved(100, -5_000))).toBe(false);
  });
});
