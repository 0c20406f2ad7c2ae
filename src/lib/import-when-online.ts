import { lazy } from "react";

/** What React.lazy may load: a component of any props. */
type Part = Awaited<ReturnType<Parameters<typeof lazy>[0]>>["default"];

/**
 * A module import that a lost network does not fail: when the import fails it is tried again each
 * time the browser is back online, and the promise settles once it loads. For what loads in the
 * background or on use, where a failure would reach no one who could act on it.
 */
export function importWhenOnline<T>(load: () => Promise<T>): Promise<T> {
  return load().catch(
    () =>
      new Promise<T>((resolve) =>
        window.addEventListener("online", () => resolve(importWhenOnline(load)), { once: true }),
      ),
  );
}

/**
 * React.lazy for a part of a page (a dialog, a map, a watcher, the header's menu), its module loaded
 * by importWhenOnline: a lost network delays the part, its Suspense fallback shown meanwhile. A plain
 * lazy that rejects throws to the nearest error boundary (for the header and the sign-in watchers,
 * the one around the whole app) and stays rejected for the rest of the visit.
 */
export function lazyWhenOnline<T extends Part>(load: () => Promise<{ default: T }>) {
  return lazy(() => importWhenOnline(load));
}
