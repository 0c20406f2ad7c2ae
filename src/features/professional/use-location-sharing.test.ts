import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GEOLOCATION_OPTIONS } from "@/lib/map-constants";
import { useLocationSharing } from "@/features/professional/use-location-sharing";

type Success = (p: GeolocationPosition) => void;
type Failure = (e: GeolocationPositionError) => void;

let onSuccess: Success;
let onError: Failure;
const watchPosition = vi.fn((s: Success, e: Failure) => {
  onSuccess = s;
  onError = e;
  return 7;
});
const clearWatch = vi.fn();

function fix(lat: number, lng: number) {
  act(() =>
    onSuccess({
      coords: { latitude: lat, longitude: lng, accuracy: 5 },
      timestamp: Date.now(),
    } as GeolocationPosition),
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  Object.defineProperty(navigator, "geolocation", {
    value: { watchPosition, clearWatch },
    configurable: true,
  });
});

afterEach(() => {
  vi.useRealTimers();
  watchPosition.mockClear();
  clearWatch.mockClear();
  Reflect.deleteProperty(navigator, "geolocation");
});

describe("useLocationSharing", () => {
  it("watches with the spec's options, shows the position and throttles what it sends", async () => {
    const send = vi.fn(async () => undefined);
    const { result, unmount } = renderHook(() => useLocationSharing(send));
    expect(result.current.geo.status).toBe("waiting");
    expect(watchPosition).toHaveBeenCalledWith(
      expect.any(Function),
      expect.any(Function),
      GEOLOCATION_OPTIONS,
    );

    fix(28.05, 81.6167);
    expect(result.current.geo).toMatchObject({
      status: "tracking",
      position: { lat: 28.05, lng: 81.6167 },
    });
    expect(send).toHaveBeenCalledTimes(1);
    await act(async () => undefined);

    // 2 s later, 3 m away: held back.
    act(() => vi.advanceTimersByTime(2_000));
    fix(28.05003, 81.6167);
    expect(send).toHaveBeenCalledTimes(1);

    // Over a second later, 50 m away: sent.
    act(() => vi.advanceTimersByTime(1_000));
    fix(28.0505, 81.6167);
    expect(send).toHaveBeenCalledTimes(2);
    await act(async () => undefined);

    // Standing still: the timer re-sends the last position once 15 s have passed.
    await act(async () => vi.advanceTimersByTime(14_000));
    expect(send).toHaveBeenCalledTimes(2);
    await act(async () => vi.advanceTimersByTime(6_000));
    expect(send).toHaveBeenCalledTimes(3);

    unmount();
    expect(clearWatch).toHaveBeenCalledWith(7);
  });

  it("reports a denied permission", () => {
    const { result } = renderHook(() => useLocationSharing(async () => undefined));
    act(() =>
      onError({
        code: 1,
        PERMISSION_DENIED: 1,
        POSITION_UNAVAILABLE: 2,
        TIMEOUT: 3,
        message: "denied",
      } as GeolocationPositionError),
    );
    expect(result.current.geo.status).toBe("denied");
  });

  it("reports a failed send without stopping", async () => {
    const send = vi.fn(async () => {
      throw new Error("Too many position updates.");
    });
    const { result } = renderHook(() => useLocationSharing(send));
    fix(28.05, 81.6167);
    await act(async () => undefined);
    expect(result.current.sent).toEqual({
      status: "failed",
      message: "Too many position updates.",
    });
  });

  it("says so when the browser has no geolocation", () => {
    Reflect.deleteProperty(navigator, "geolocation");
    const { result } = renderHook(() => useLocationSharing(async () => undefined));
    expect(result.current.geo.status).toBe("unsupported");
  });
});
