import { createStore } from "@/lib/external-store";

/** Chromium's install prompt event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

const deferred = createStore<BeforeInstallPromptEvent | null>(null);

/**
 * Chromium fires `beforeinstallprompt` once the app is installable; kept here so the app offers the
 * install when it suits (the dashboard, a first accepted job) instead of the browser's mini-infobar.
 */
export function captureInstallPrompt(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred.set(event as BeforeInstallPromptEvent);
  });
  window.addEventListener("appinstalled", () => {
    deferred.set(null);
  });
}

/** Whether the browser lets the app offer its install now. */
export function useCanInstall(): boolean {
  return deferred.useValue((event) => event !== null);
}

/** Shows the browser's install dialog; true when the user installed. The event can be used once. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred.get();
  if (event === null) return false;
  deferred.set(null);
  await event.prompt();
  return (await event.userChoice).outcome === "accepted";
}
