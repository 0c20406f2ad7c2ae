import { describe, expect, it, vi } from "vitest";

const calls: unknown[][] = [];
vi.mock("sonner", () => {
  const toast = Object.assign((...args: unknown[]) => calls.push(["toast", ...args]), {
    success: (...args: unknown[]) => calls.push(["success", ...args]),
    error: (...args: unknown[]) => calls.push(["error", ...args]),
  });
  return { toast };
});

const { toast } = await import("@/lib/lazy-toast");
const { firstToast } = await import("@/lib/first-toast");

describe("lazy toast", () => {
  it("tells the page of its first toast, so that the Toaster loads without waiting", async () => {
    let raised = false;
    void firstToast.then(() => (raised = true));
    await Promise.resolve();
    expect(raised).toBe(false);
    toast("Saved");
    await vi.waitFor(() => expect(calls).toEqual([["toast", "Saved"]]));
    expect(raised).toBe(true);
    calls.length = 0;
  });

  it("runs calls made before sonner has loaded, in order, with their arguments", async () => {
    toast.error("Login failed");
    toast("Saved", { duration: 1 });
    toast.success("Booked");
    expect(calls).toEqual([]);
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(calls).toEqual([
      ["error", "Login failed"],
      ["toast", "Saved", { duration: 1 }],
      ["success", "Booked"],
    ]);
  });
});
