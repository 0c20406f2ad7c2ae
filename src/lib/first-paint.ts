/** Longest anything waits for the first paint: a page that paints nothing must still get its parts. */
const FIRST_PAINT_WAIT_MS = 3_000;

let painted: Promise<void> | undefined;

/**
 * Settles once the app's first page has painted: index.html's static header bar (`data-shell`,
 * painted before any script) replaced by the app's first render, then the frame after it drawn. At
 * once after that on a later page of the visit, and in a hidden tab (which paints nothing).
 */
export function afterFirstPaint(): Promise<void> {
  return (painted ??= new Promise((resolve) => {
    if (document.visibilityState !== "visible") return resolve();
    // a timer set in a frame's callback runs once that frame is drawn
    const afterNextFrame = () => requestAnimationFrame(() => setTimeout(resolve));
    const root = document.getElementById("root");
    const shellShown = () => root?.querySelector("[data-shell]") != null;
    if (!shellShown()) return afterNextFrame();
    const observer = new MutationObserver(() => {
      if (shellShown()) return;
      observer.disconnect();
      afterNextFrame();
    });
    observer.observe(root!, { childList: true, subtree: true });
    setTimeout(resolve, FIRST_PAINT_WAIT_MS);
  }));
}
