import { afterFirstPaint } from "@/lib/first-paint";

/**
 * How long the page is left to itself after its first paint before code it does not need yet (the
 * menu, the search results, the toaster, the service worker) is fetched and run. A phone at 4× CPU
 * is still rendering the page, its form and its first data for about two seconds; modules evaluated
 * meanwhile turned its short tasks into long ones (Playwright traces of /login, blocking time after
 * the first paint counted at 4× as Lighthouse does, medians of 6 on a busy machine: 644 → 491 ms).
 * Each of them also loads at once when the visitor reaches for it (a tap on the menu, a focus in
 * search, the first toast).
 */
export const SETTLE_MS = 2_500;

/**
 * Runs `task` once the page has loaded (the window's load event), painted and settled, and the browser
 * is then idle: for code the first paint does not need, so that fetching and running it does not
 * compete with the page's own chunks, fonts, paint and first render. Returns a cleanup that cancels it
 * if it has not run yet.
 */
export function afterLoad(task: () => void): () => void {
  let cancelled = false;
  let cancelWait = () => {};
  const whenIdle = () => {
    // Safari has no requestIdleCallback.
    if ("requestIdleCallback" in window) {
      const id = requestIdleCallback(task);
      cancelWait = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(task, 1);
      cancelWait = () => clearTimeout(id);
    }
  };
  const loaded = () =>
    void afterFirstPaint().then(() => {
      if (cancelled) return;
      const id = setTimeout(whenIdle, SETTLE_MS);
      cancelWait = () => clearTimeout(id);
    });
  if (document.readyState === "complete") loaded();
  else window.addEventListener("load", loaded, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", loaded);
    cancelWait();
  };
}
