import { QUICK_REPLY_TEXT, type QuickReply } from "@convex/rules/chat";
import { getLocale, type Locale } from "@/i18n/locale";

/** A quick reply in the reader's language (the words live beside the rule, for phone alerts too). */
export function quickReplyText(key: QuickReply, locale: Locale = getLocale()): string {
  return QUICK_REPLY_TEXT[key][locale === "ne-NP" ? "ne" : "en"];
}
