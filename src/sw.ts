/// <reference lib="webworker" />
// The service worker: the precached app shell (offline), and Web Push notifications.
// API calls, the Convex WebSocket and stored files are never cached: only precached build files and
// navigations (answered with the app shell) are routed here; every other request goes to the network.
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { clickTarget, notificationFor, readPushMessage } from "@/app/pwa/push-message";

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [/^\/api\//] }),
);

// A first install takes over the open pages at once, so they can open notifications' bookings.
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The update prompt's "Update" (workbox-window's messageSkipWaiting).
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

self.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    // not JSON: the fallback notification
  }
  const { title, options } = notificationFor(readPushMessage(data));
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(clickTarget(event.notification.data, event.action)));
});

/** Shows `path` in an open window of the app if there is one, else in a new one. */
async function openPage(path: string): Promise<void> {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window" });
  const client = windows.find((w) => w.focused) ?? windows[0];
  const shown = client && (await client.navigate(url).catch(() => null));
  if (shown) await shown.focus();
  else await self.clients.openWindow(url);
}
