import { act, render, renderHook, screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  RETRY_WHILE_ONLINE_MS,
  importWhenOnline,
  lazyWhenOnline,
  usePartsMissing,
} from "@/lib/import-when-online";

const lost = () => new TypeError("Failed to fetch dynamically imported module");

describe("importWhenOnline", () => {
  it("loads at once when the network is up", async () => {
    await expect(importWhenOnline(() => Promise.resolve("module"))).resolves.toBe("module");
  });

  it("waits for the network after a failed load and loads when the browser is back online", async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(lost())
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

describe("importWhenOnline while the browser says it is online", () => {
  afterEach(() => vi.useRealTimers());

  it("tries again after a wait, offers a reload once every try failed, and withdraws it once loaded", async () => {
    vi.useFakeTimers();
    const load = vi.fn<() => Promise<string>>().mockRejectedValue(lost());
    const missing = renderHook(() => usePartsMissing());
    let settled: string | undefined;
    void importWhenOnline(load).then((value) => (settled = value));

    for (const [i, wait] of RETRY_WHILE_ONLINE_MS.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(load).toHaveBeenCalledTimes(i + 1);
      expect(missing.result.current).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(load).toHaveBeenCalledTimes(i + 2);
    }
    expect(missing.result.current).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(RETRY_WHILE_ONLINE_MS.length + 1);

    load.mockResolvedValueOnce("module");
    await act(async () => {
      window.dispatchEvent(new Event("online"));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(settled).toBe("module");
    expect(missing.result.current).toBe(false);
  });
});

describe("lazyWhenOnline", () => {
  it("keeps a part whose code was lost behind its fallback, never its error boundary, and shows it once online", async () => {
    const load = vi
      .fn<() => Promise<{ default: () => React.ReactNode }>>()
      .mockRejectedValueOnce(lost())
      .mockResolvedValueOnce({ default: () => <p>The menu</p> });
    const Menu = lazyWhenOnline(load);
    render(
      <main>
        <h1>The page</h1>
        <Suspense fallback={<p>Loading the menu…</p>}>
          <Menu />
        </Suspense>
      </main>,
    );
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(screen.getByText("Loading the menu…")).toBeVisible();
    expect(screen.getByRole("heading", { name: "The page" })).toBeVisible();

    window.dispatchEvent(new Event("online"));
    expect(await screen.findByText("The menu")).toBeVisible();
    expect(screen.getByRole("heading", { name: "The page" })).toBeVisible();
  });
});
