import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let paint: () => void = () => {};
vi.mock("@/lib/first-paint", () => ({
  afterFirstPaint: () => new Promise<void>((resolve) => (paint = resolve)),
}));

const { afterLoad, SETTLE_MS } = await import("@/lib/after-load");

let idle: IdleRequestCallback[] = [];
/** The browser has an idle moment: its idle callbacks run. */
function idleMoment() {
  const due = idle;
  idle = [];
  due.forEach((callback) => callback({ didTimeout: false, timeRemaining: () => 50 }));
}

beforeEach(() => {
  vi.useFakeTimers();
  idle = [];
  vi.stubGlobal("requestIdleCallback", (callback: IdleRequestCallback) => idle.push(callback));
  vi.stubGlobal("cancelIdleCallback", () => (idle = []));
  vi.spyOn(document, "readyState", "get").mockReturnValue("complete");
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("afterLoad", () => {
  it("runs the task once the page has painted and settled, at the browser's next idle moment", async () => {
    const task = vi.fn();
    afterLoad(task);
    idleMoment();
    expect(task).not.toHaveBeenCalled();
    paint();
    await vi.advanceTimersByTimeAsync(SETTLE_MS - 1);
    idleMoment();
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).not.toHaveBeenCalled();
    idleMoment();
    expect(task).toHaveBeenCalledOnce();
  });

  it("waits for the window's load event when the page is still loading", async () => {
    vi.spyOn(document, "readyState", "get").mockReturnValue("loading");
    const task = vi.fn();
    afterLoad(task);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    paint();
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    idleMoment();
    expect(task).not.toHaveBeenCalled();
    window.dispatchEvent(new Event("load"));
    paint();
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    idleMoment();
    expect(task).toHaveBeenCalledOnce();
  });

  it("runs nothing once cancelled, whether before the paint, while settling or before the idle moment", async () => {
    for (const stage of ["paint", "settle", "idle"] as const) {
      const task = vi.fn();
      const cancel = afterLoad(task);
      if (stage === "paint") cancel();
      paint();
      await vi.advanceTimersByTimeAsync(stage === "settle" ? SETTLE_MS / 2 : SETTLE_MS);
      if (stage !== "paint") cancel();
      await vi.advanceTimersByTimeAsync(SETTLE_MS);
      idleMoment();
      expect(task, stage).not.toHaveBeenCalled();
    }
  });
});
