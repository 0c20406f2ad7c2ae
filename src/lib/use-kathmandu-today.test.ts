import { act, renderHook } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { useKathmanduToday } from "@/lib/use-kathmandu-today";

const kathmanduMidnight = (y: number, m: number, d: number) =>
  Date.UTC(y, m - 1, d) - (5 * 60 + 45) * 60_000;

afterEach(() => vi.useRealTimers());

test("today moves on at midnight in Kathmandu, not at the browser's midnight", () => {
  vi.useFakeTimers();
  vi.setSystemTime(kathmanduMidnight(2026, 11, 28) - 60_000);
  const { result } = renderHook(() => useKathmanduToday());
  expect(result.current).toBe(kathmanduMidnight(2026, 11, 27));
  act(() => vi.advanceTimersByTime(59_000));
  expect(result.current).toBe(kathmanduMidnight(2026, 11, 27));
  act(() => vi.advanceTimersByTime(1_000));
  expect(result.current).toBe(kathmanduMidnight(2026, 11, 28));
  // and again a day later, from the new day's own timer
  act(() => vi.advanceTimersByTime(24 * 3600_000));
  expect(result.current).toBe(kathmanduMidnight(2026, 11, 29));
});
