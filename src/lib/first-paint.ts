/** Longest anything waits for the first paint: a page that paints nothing must still get its parts. */
const FIRST_PAINT_WAIT_MS = 3_000;

let painted: Promise<void> | undefined;

/**
 * Settles once the browser has reported the visit's first contentful paint: at once after it (a
 * later page of the visit), in a hidden tab (which paints nothing), or where paints are not reported.
 */
export function afterFirstPaint(): Promise<void> {
  return (painted ??= new Promise((resolve) => {
    const done = () => performance.getEntriesByName("first-contentful-paint").length > 0;
    if (
      document.visibilityState !== "visible" ||
      !globalThis.PerformanceObserver?.supportedEntryTypes.includes("paint") ||
      done()
    )
      return resolve();
    new PerformanceObserver((_, observer) => {
      if (!done()) return;
      observer.disconnect();
      resolve();
    }).observe({ type: "paint" });
    setTimeout(resolve, FIRST_PAINT_WAIT_MS);
  }));
}
