import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

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

/** index.html's #root with its static header bar, as the browser first paints it. */
function staticBar() {
  document.body.innerHTML = '<div id="root"><header data-shell>GharSewa</header></div>';
}
/** The app's first render: React replaces the bar with the page. */
function appRendered() {
  document.getElementById("root")!.innerHTML = "<header>GharSewa</header><main>Page</main>";
}

let frames: FrameRequestCallback[] = [];
/** The browser draws a frame: its callbacks run, then the timers they set (after the paint). */
async function drawFrame() {
  const due = frames;
  frames = [];
  due.forEach((callback) => callback(performance.now()));
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
  vi.spyOn(document, "visibilityState", "get").mockReturnValue("visible");
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("afterFirstPaint", () => {
  it("waits for the app to replace the static bar, then for the frame after it", async () => {
    staticBar();
    const afterFirstPaint = await freshAfterFirstPaint();
    const painted = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled(painted)).toBe(false);
    appRendered();
    await Promise.resolve(); // the mutation observer's turn
    expect(await settled(painted)).toBe(false);
    await drawFrame();
    expect(await settled(painted)).toBe(true);
  });

  it("settles after a frame on a later page of the visit, the bar long gone", async () => {
    staticBar();
    appRendered();
    const afterFirstPaint = await freshAfterFirstPaint();
    const painted = afterFirstPaint();
    await drawFrame();
    expect(await settled(painted)).toBe(true);
  });

  it("settles at once in a hidden tab, which paints nothing", async () => {
    staticBar();
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    const afterFirstPaint = await freshAfterFirstPaint();
    expect(await settled(afterFirstPaint())).toBe(true);
  });

  it("stops waiting after 3 s for an app that never renders", async () => {
    staticBar();
    const afterFirstPaint = await freshAfterFirstPaint();
    const painted = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(await settled(painted)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(painted)).toBe(true);
  });
});
