import { afterFirstPaint } from "@/lib/first-paint";
import { lazyWhenOnline, type Part } from "@/lib/import-when-online";

/**
 * lazyWhenOnline for the heavy part of a page someone lands on (a form with its validation code):
 * its module is fetched only once the page around it has painted, so the heading and text show
 * without waiting for that code. On a phone network each request of a first visit waits its turn
 * (six at a time over HTTP/1.1); the forms' ~40 KB in ~12 chunks held the largest paint of /contact,
 * /login and /signup by ~0.5 s (Lighthouse mobile). Later pages of the visit load it at once.
 */
export function lazyAfterPaint<T extends Part>(load: () => Promise<{ default: T }>) {
  return lazyWhenOnline(() => afterFirstPaint().then(load));
}
