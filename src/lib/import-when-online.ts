import { lazy } from "react";
import { createStore } from "@/lib/external-store";

/** What React.lazy may load: a component of any props. */
export type Part = Awaited<ReturnType<Parameters<typeof lazy>[0]>>["default"];

/**
 * How long an import that failed while the browser says it is online waits before each new try.
 * After the last, the module is taken as gone from the server (a deploy the update prompt did not
 * catch) and the page offers a reload (usePartsMissing), while the tries go on each time the
 * browser comes back online.
 */
export const RETRY_WHILE_ONLINE_MS = [1_000, 4_000] as const;

const missing = createStore(0);
const countMissing = (by: 1 | -1) => missing.set(missing.get() + by);

/**
 * A module import that a lost network does not fail: when the import fails it is tried again each
 * time the browser is back online (and, while it stays online, after RETRY_WHILE_ONLINE_MS), and
 * the promise settles once it loads. For what loads in the background or on use, where a failure
 * would reach no one who could act on it.
 */
export function importWhenOnline<T>(load: () => Promise<T>): Promise<T> {
  let counted = false;
  const attempt = (failedWhileOnline: number): Promise<T> =>
    load().catch(
      () =>
        new Promise<T>((resolve) => {
          const online = navigator.onLine;
          const retry = () => {
            window.removeEventListener("online", retry);
            clearTimeout(timer);
            resolve(attempt(failedWhileOnline + (online ? 1 : 0)));
          };
          window.addEventListener("online", retry);
          const wait = online ? RETRY_WHILE_ONLINE_MS[failedWhileOnline] : undefined;
          const timer = wait === undefined ? undefined : setTimeout(retry, wait);
          if (online && wait === undefined && !counted) {
            counted = true;
            countMissing(1);
          }
        }),
    );
  return attempt(0).finally(() => {
    if (counted) countMissing(-1);
  });
}

/** Whether a part's module failed every try while the browser was online, and has not loaded since. */
export function usePartsMissing(): boolean {
  return missing.useValue((count) => count > 0);
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
