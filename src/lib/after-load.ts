import { afterFirstPaint } from "@/lib/first-paint";

/**
 * Runs `task` once the page has loaded (the window's load event) and painted, and the browser is
 * then idle: for code the first paint does not need, so that fetching it does not compete with the
 * page's own chunks, fonts and paint. Returns a cleanup that cancels it if it has not run yet.
 */
export function afterLoad(task: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const idle = () =>
    void afterFirstPaint().then(() => {
      if (cancelled) return;
      // Safari has no requestIdleCallback.
      if ("requestIdleCallback" in window) {
        const id = requestIdleCallback(task);
        cancelIdle = () => cancelIdleCallback(id);
      } else {
        const id = setTimeout(task, 1);
        cancelIdle = () => clearTimeout(id);
      }
    });
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", idle);
    cancelIdle();
  };
}
