import { act, renderHook } from "@testing-library/react";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useBusyCall } from "@/lib/use-busy-call";

vi.mock("sonner", () => ({ toast: { error: vi.fn() } }));
const { toast } = await import("sonner");

beforeEach(() => vi.clearAllMocks());

/** Starts a call through the hook that runs until `finish` or `refuse` ends it. */
function startCall() {
  const hook = renderHook(() => useBusyCall());
  let finish!: () => void;
  let refuse!: (error: unknown) => void;
  const call = () =>
    new Promise<void>((resolve, reject) => {
      finish = resolve;
      refuse = reject;
    });
  let done!: Promise<boolean>;
  act(() => {
    done = hook.result.current.run(call, "Could not save");
  });
  return { hook, done, finish, refuse };
}

describe("useBusyCall", () => {
  it("is busy while the call runs and resolves true once it went through", async () => {
    const { hook, done, finish } = startCall();
    expect(hook.result.current.busy).toBe(true);
    await act(async () => finish());
    expect(await done).toBe(true);
    expect(hook.result.current.busy).toBe(false);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("tells a refusal in a toast, resolves false and is no longer busy", async () => {
    const { hook, done, refuse } = startCall();
    await act(async () => refuse(new ConvexError({ code: "TOO_LATE", message: "Too late" })));
    expect(await done).toBe(false);
    expect(toast.error).toHaveBeenCalledWith("Too late");
    expect(hook.result.current.busy).toBe(false);
  });

  it("with staysBusy stays busy once the call went through, but not after a refusal", async () => {
    const { result } = renderHook(() => useBusyCall({ staysBusy: true }));
    await act(() => result.current.run(() => Promise.reject(new Error("offline")), "Not sent"));
    expect(toast.error).toHaveBeenCalledWith("offline");
    expect(result.current.busy).toBe(false);
    await act(() => result.current.run(() => Promise.resolve(), "Not sent"));
    expect(result.current.busy).toBe(true);
  });
});
