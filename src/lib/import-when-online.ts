/**
 * A module import that a lost network does not fail: when the import fails it is tried again each
 * time the browser is back online, and the promise settles once it loads. For what loads in the
 * background (React.lazy of a watcher): a rejected lazy would take the whole app down with it.
 */
export function importWhenOnline<T>(load: () => Promise<T>): Promise<T> {
  return load().catch(
    () =>
      new Promise<T>((resolve) =>
        window.addEventListener("online", () => resolve(importWhenOnline(load)), { once: true }),
      ),
  );
}
