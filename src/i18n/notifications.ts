import { noticeText, type StoredNotice } from "@convex/rules/notificationText";
import { getLocale } from "@/i18n/paraglide/runtime";

/** A notification as stored: `kind` and `params` from the server, English `title`/`body` as kept. */
export type StoredNotification = StoredNotice;

/**
 * A server-created notification worded in the reader's language from its kind and parameters, with
 * the words the server's phone alerts use too (convex/rules/notificationText.ts). Rows stored before
 * parameters existed get the kind's general wording; a kind the catalogue does not know keeps the
 * stored text.
 */
export function notificationText(n: StoredNotification): { title: string; body: string } {
  return noticeText(getLocale(), n);
}
