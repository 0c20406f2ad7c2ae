import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let reported: PerformanceEntry[] = [];
let observers: (() => void)[] = [];

class FakePerformanceObserver {
  static supportedEntryTypes = ["paint"];
  constructor(private callback: (list: unknown, observer: FakePerformanceObserver) => void) {}
  observe() {
    observers.push(() => this.callback({}, this));
  }
  disconnect() {
    observers = [];
  }
}

/** A fresh module: it remembers the visit's first paint. */
async function freshAfterFirstPaint() {
  vi.resetModules();
  return (await import("@/lib/first-paint")).afterFirstPaint;
}

async function settled(promise: Promise<void>) {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

beforeEach(() => {
  reported = [];
  observers = [];
  vi.stubGlobal("PerformanceObserver", FakePerformanceObserver);
  vi.spyOn(performance, "getEntriesByName").mockImplementation(() => reported);
  vi.spyOn(document, "visibilityState", "get").mockReturnValue("visible");
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const paint = () => {
  reported = [{ name: "first-contentful-paint" } as PerformanceEntry];
  observers.forEach((notify) => notify());
};

describe("afterFirstPaint", () => {
  it("waits until the browser reports the first contentful paint", async () => {
    const afterFirstPaint = await freshAfterFirstPaint();
    const painted = afterFirstPaint();
    expect(await settled(painted)).toBe(false);
    observers.forEach((notify) => notify()); // another paint entry, not yet the contentful one
    expect(await settled(painted)).toBe(false);
    paint();
    expect(await settled(painted)).toBe(true);
    expect(observers).toHaveLength(0);
  });

  it("settles at once on a later page of the visit, the paint already reported", async () => {
    const afterFirstPaint = await freshAfterFirstPaint();
    paint();
    expect(await settled(afterFirstPaint())).toBe(true);
  });

  it("settles at once in a hidden tab, which paints nothing", async () => {
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    const afterFirstPaint = await freshAfterFirstPaint();
    expect(await settled(afterFirstPaint())).toBe(true);
  });

  it("settles at once where the browser reports no paints", async () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const afterFirstPaint = await freshAfterFirstPaint();
    expect(await settled(afterFirstPaint())).toBe(true);
  });

  it("stops waiting after 3 s for a paint that never comes", async () => {
    vi.useFakeTimers();
    const afterFirstPaint = await freshAfterFirstPaint();
    const painted = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(await settled(painted)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(painted)).toBe(true);
  });
});
