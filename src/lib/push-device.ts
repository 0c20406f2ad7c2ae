/**
 * This browser's Web Push subscription (the service worker's PushManager). The server stores it per
 * user (convex/push.ts); the browser keeps one per app, whoever is signed in.
 */
import { m } from "@/i18n/paraglide/messages";
import { deviceOf } from "@convex/rules/userAgent";

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This device's current subscription, if it has one. */
export async function deviceSubscription(): Promise<PushSubscription | null> {
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export type DeviceSubscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  label: string;
};

export class PushUnavailable extends Error {}

/**
 * Asks for permission to notify and subscribes this device with the deployment's VAPID key. Must be
 * called from a tap (browsers ask for notification permission only then).
 */
export async function subscribeDevice(publicKey: string): Promise<DeviceSubscription> {
  const reg = await registration();
  if (reg === null) throw new PushUnavailable(m.alerts_browser_cannot());
  if ((await Notification.requestPermission()) !== "granted")
    throw new PushUnavailable(m.alerts_blocked());
  const existing = await reg.pushManager.getSubscription();
  const sub =
    existing ??
    (await reg.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(publicKey) })
      .catch((error: unknown) => {
        // the browser's own words ("Registration failed - permission denied") are not for people
        throw new PushUnavailable(
          error instanceof DOMException && error.name === "NotAllowedError"
            ? m.alerts_blocked()
            : m.alerts_push_service_failed(),
        );
      }));
  const json = sub.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth)
    throw new PushUnavailable(m.alerts_no_subscription());
  return {
    endpoint: json.endpoint,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
    label: deviceLabel(navigator.userAgent),
  };
}

/** Ends this device's subscription at the push service; its endpoint, or null if it had none. */
export async function unsubscribeDevice(): Promise<string | null> {
  const sub = await deviceSubscription();
  if (sub === null) return null;
  await sub.unsubscribe();
  return sub.endpoint;
}

/** "Chrome on Android": enough for someone to tell their devices apart. */
export function deviceLabel(userAgent: string): string {
  const { browser, system } = deviceOf(userAgent);
  return `${browser ?? "Browser"} on ${system ?? "this device"}`;
}
