import { describe, expect, it, vi } from "vitest";
import { importWhenOnline } from "@/lib/import-when-online";

describe("importWhenOnline", () => {
  it("loads at once when the network is up", async () => {
    await expect(importWhenOnline(() => Promise.resolve("module"))).resolves.toBe("module");
  });

  it("waits for the network after a failed load and loads when the browser is back online", async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockResolvedValueOnce("module");
    let settled: string | undefined;
    void importWhenOnline(load).then((value) => (settled = value));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(settled).toBeUndefined();

    window.dispatchEvent(new Event("online"));
    await vi.waitFor(() => expect(settled).toBe("module"));
    expect(load).toHaveBeenCalledTimes(2);
  });
});
