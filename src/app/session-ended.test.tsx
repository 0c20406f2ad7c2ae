import { render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { lastKnownJobs, rememberJobs } from "@/lib/last-known-jobs";

let auth = { isLoading: true, isAuthenticated: false };
vi.mock("convex/react", () => ({ useConvexAuth: () => auth, useQuery: () => null }));
vi.mock("@convex-dev/auth/react", () => ({
  useAuthToken: () => null,
  useAuthActions: () => ({ signOut: vi.fn() }),
}));
const { default: SessionEnded } = await import("@/app/session-ended");

beforeEach(() => localStorage.clear());

describe("the jobs kept for the dashboard offline", () => {
  it("stay while a session loads (offline) or is signed in, and go once nobody is signed in", () => {
    rememberJobs("user1", [{ id: 1 }]);
    const { rerender } = render(<SessionEnded />);
    expect(lastKnownJobs("user1")).not.toBeNull();
    auth = { isLoading: false, isAuthenticated: true };
    rerender(<SessionEnded />);
    expect(lastKnownJobs("user1")).not.toBeNull();
    auth = { isLoading: false, isAuthenticated: false };
    rerender(<SessionEnded />);
    expect(lastKnownJobs("user1")).toBeNull();
  });
});
