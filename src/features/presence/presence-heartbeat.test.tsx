import { act, cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_INTERVAL_MS, PresenceHeartbeat } from "@/features/presence/presence-heartbeat";

const heartbeat = vi.fn(async () => null);
let authenticated = false;
vi.mock("convex/react", () => ({
  useConvexAuth: () => ({ isLoading: false, isAuthenticated: authenticated }),
  useMutation: () => heartbeat,
}));

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  heartbeat.mockClear();
});

describe("PresenceHeartbeat", () => {
  it("beats at once and every 30 s while signed in, and stops after sign-out", () => {
    authenticated = true;
    const { rerender } = render(<PresenceHeartbeat />);
    expect(heartbeat).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS - 1));
    expect(heartbeat).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect(heartbeat).toHaveBeenCalledTimes(2);

    authenticated = false;
    rerender(<PresenceHeartbeat />);
    act(() => vi.advanceTimersByTime(5 * HEARTBEAT_INTERVAL_MS));
    expect(heartbeat).toHaveBeenCalledTimes(2);
  });

  it("does nothing for visitors", () => {
    authenticated = false;
    render(<PresenceHeartbeat />);
    act(() => vi.advanceTimersByTime(2 * HEARTBEAT_INTERVAL_MS));
    expect(heartbeat).not.toHaveBeenCalled();
  });
});
