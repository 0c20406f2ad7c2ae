import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

let isAuthenticated = false;
vi.mock("convex/react", () => ({ useConvexAuth: () => ({ isAuthenticated, isLoading: false }) }));

const { useWaitForAuthenticated } = await import("@/lib/use-wait-for-auth");

describe("useWaitForAuthenticated", () => {
  it("resolves only once the server has confirmed the token", async () => {
    isAuthenticated = false;
    const { result, rerender } = renderHook(() => useWaitForAuthenticated());
    let done = false;
    const waiting = result.current().then(() => (done = true));
    await act(async () => {});
    expect(done).toBe(false);

    isAuthenticated = true;
    rerender();
    await waiting;
    expect(done).toBe(true);
  });

  it("resolves at once when already authenticated", async () => {
    isAuthenticated = true;
    const { result } = renderHook(() => useWaitForAuthenticated());
    await expect(result.current()).resolves.toBeUndefined();
  });
});
