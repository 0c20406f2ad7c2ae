import { useEffect, useRef, useState } from "react";

// Safari has no requestIdleCallback; the timeout lets a busy page still get the widget.
const whenIdle = (run: () => void) =>
  "requestIdleCallback" in window
    ? requestIdleCallback(run, { timeout: 2000 })
    : setTimeout(run, 1);

/**
 * For a heavy widget that need not delay the first screen (the search page's map): `shown` turns true
 * once `visible` (a fraction) of the element behind `ref` is on the screen and the browser has had an
 * idle moment after that, and stays true; it starts watching once `enabled`. A sliver at the bottom of
 * a phone's first screen does not count: the widget loads when the reader scrolls to it. Without
 * IntersectionObserver (jsdom) it is true at once.
 */
export function useInView<T extends Element>(enabled = true, visible = 0.25) {
  const ref = useRef<T>(null);
  const [shown, setShown] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = ref.current;
    if (shown || !enabled || !element) return;
    let active = true;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        whenIdle(() => active && setShown(true));
      },
      { threshold: visible },
    );
    observer.observe(element);
    return () => {
      active = false;
      observer.disconnect();
    };
  }, [shown, enabled, visible]);
  return { ref, shown };
}
