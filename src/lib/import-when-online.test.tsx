import { render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import { importWhenOnline, lazyWhenOnline } from "@/lib/import-when-online";

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
