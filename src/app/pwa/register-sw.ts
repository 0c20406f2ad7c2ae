/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from "virtual:pwa-register";

/** Long-open dashboards look for a new version this often (besides each navigation's check). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** Registers the service worker; `onUpdate` gets the function that activates a waiting new version. */
export function registerServiceWorker(onUpdate: (activate: () => void) => void): void {
  const update = registerSW({
    onNeedRefresh: () => onUpdate(() => void update(true)),
    onRegisteredSW: (_url, registration) => {
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_MS);
    },
  });
}
