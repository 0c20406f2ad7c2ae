import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useLogout } from "@/lib/use-logout";

const signOut = vi.fn();
vi.mock("@convex-dev/auth/react", () => ({ useAuthActions: () => ({ signIn: vi.fn(), signOut }) }));
const leave = vi.fn(async () => null);
vi.mock("convex/react", () => ({ useMutation: () => leave }));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const { toast } = await import("sonner");

beforeEach(() => vi.clearAllMocks());

describe("useLogout", () => {
  it("is busy while signing out, then toasts and runs afterLogout", async () => {
    let finish!: () => void;
    signOut.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    const afterLogout = vi.fn();
    const { result } = renderHook(() => useLogout("Sita Sharma", afterLogout));
    expect(result.current.busy).toBe(false);
    let done!: Promise<void>;
    act(() => {
      done = result.current.logout();
    });
    expect(result.current.busy).toBe(true);
    // the session ends after presence:leave has answered
    await vi.waitFor(() => expect(signOut).toHaveBeenCalled());
    await act(async () => {
      finish();
      await done;
    });
    expect(toast.success).toHaveBeenCalledWith("Sita Sharma has been logged out successfully");
    // offline for everyone before the session ends
    expect(leave).toHaveBeenCalledOnce();
    expect(afterLogout).toHaveBeenCalledOnce();
    expect(result.current.busy).toBe(false);
  });

  it("on failure toasts the error, stays put and is no longer busy", async () => {
    signOut.mockRejectedValue(new Error("offline"));
    const afterLogout = vi.fn();
    const { result } = renderHook(() => useLogout("Admin", afterLogout));
    await act(() => result.current.logout());
    expect(toast.error).toHaveBeenCalledWith("Sign-out failed. Please try again.");
    expect(toast.success).not.toHaveBeenCalled();
    expect(afterLogout).not.toHaveBeenCalled();
    expect(result.current.busy).toBe(false);
  });
});
