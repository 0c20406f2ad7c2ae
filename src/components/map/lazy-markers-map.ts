import { lazyWhenOnline } from "@/lib/import-when-online";

/**
 * MarkersMap for the pages that show one: Leaflet (~45 KB gzip) is in the map's own chunk, fetched
 * when a page first renders this (by importWhenOnline: a lost network delays the map, behind its
 * Suspense fallback), never with the page.
 */
export const LazyMarkersMap = lazyWhenOnline(() =>
  import("@/components/map/markers-map").then((module) => ({ default: module.MarkersMap })),
);
