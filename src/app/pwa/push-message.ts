/**
 * What a push message carries (convex/model/push.ts builds it) and how the service worker shows it.
 * Pure, so the service worker and tests share it.
 */
import type { PushMessage } from "@convex/model/push";
import { LOCALES, type Locale } from "@convex/constants";
import { noticeWords } from "@convex/rules/notificationText";

const FALLBACK: PushMessage = {
  kind: "unknown",
  title: "GharSewa",
  body: noticeWords("en").push_fallback,
  url: "/",
  bookingId: "",
};

/** Only paths of this origin: a message can never send the app to another site. */
function isAppPath(url: unknown): url is string {
  return (
    typeof url === "string" && url.startsWith("/") && !url.startsWith("//") && !url.includes("\\")
  );
}

const text = (value: unknown, fallback: string) =>
  typeof value === "string" && value.trim() !== "" ? value : fallback;

/** The message in a push's data; anything unreadable still shows a notification (browsers require one). */
export function readPushMessage(data: unknown): PushMessage {
  if (typeof data !== "object" || data === null) return FALLBACK;
  const d = data as Record<string, unknown>;
  const lang = LOCALES.find((l) => l === d.lang) ?? "en";
  return {
    kind: text(d.kind, FALLBACK.kind),
    title: text(d.title, FALLBACK.title),
    body: text(d.body, noticeWords(lang).push_fallback),
    url: isAppPath(d.url) ? d.url : FALLBACK.url,
    bookingId: text(d.bookingId, ""),
    lang,
  };
}

/** A new request can be answered; the notification offers Accept (which opens it) and View. */
export const ACCEPT_ACTION = "accept";
const VIEW_ACTION = "view";

/**
 * One notification per booking, one per conversation and one for its money (cash to confirm, a
 * dispute settled), one for payouts, one for settlements: a later one replaces the earlier one of
 * its group and rings again, but a chat message or a cash notice never replaces a request waiting
 * for Accept.
 */
function tagOf(message: PushMessage): string | undefined {
  if (message.kind.startsWith("payout.")) return "payout";
  if (message.kind.startsWith("settlement.")) return "settlement";
  if (!message.bookingId) return undefined;
  const group = message.kind.startsWith("chat.")
    ? "chat"
    : message.kind.startsWith("cash.")
      ? "cash"
      : "booking";
  return `${group}-${message.bookingId}`;
}

export function notificationFor(message: PushMessage): {
  title: string;
  options: NotificationOptions;
} {
  const request = message.kind === "booking.requested";
  const lang: Locale = message.lang ?? "en";
  const words = noticeWords(lang);
  const options: NotificationOptions & {
    actions?: { action: string; title: string }[];
    renotify?: boolean;
  } = {
    body: message.body,
    icon: "/pwa/icon-192.png",
    badge: "/pwa/badge-96.png",
    lang,
    tag: tagOf(message),
    renotify: tagOf(message) !== undefined,
    requireInteraction: request,
    data: message,
    ...(request && {
      actions: [
        { action: ACCEPT_ACTION, title: words.push_accept },
        { action: VIEW_ACTION, title: words.push_view },
      ],
    }),
  };
  return { title: message.title, options };
}

/** The page a click opens: the booking; Accept opens it ready to accept (the page asks, signed in). */
export function clickTarget(data: unknown, action: string): string {
  const { url } = readPushMessage(data);
  if (action !== ACCEPT_ACTION) return url;
  return `${url}${url.includes("?") ? "&" : "?"}intent=accept`;
}
