/**
 * The conversation of a booking as plain rules: how long it stays open, what a message may hold, and
 * the quick replies. The server enforces them (model/chat.ts) and the web app shows them (features/chat).
 */
import type { BookingStatus } from "./bookingLifecycle";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const CHAT_LIMITS = {
  /** Characters of one text message. */
  textMaxLength: 2000,
  /** Photos of one message. */
  photosPerMessage: 4,
  /** After a booking ends, its conversation can be read but not written for good after this. */
  openAfterEndMs: 7 * DAY,
  /** "typing…" disappears this long after the last keystroke the other side reported. */
  typingShownMs: 5000,
  /** A typist reports itself at most this often. */
  typingEveryMs: 2000,
  /** At most one phone alert per conversation and reader in this window. */
  pushEveryMs: MINUTE,
  /** Messages a page loads, newest first. */
  pageSize: 30,
} as const;

/** Ended bookings: their conversations close `openAfterEndMs` after the last change. */
const ENDED: readonly BookingStatus[] = [
  "completed",
  "reviewed",
  "rejected",
  "cancelled",
  "expired",
];

/** When a booking's conversation stops taking messages, or null while the booking is not over. */
export function chatClosesAt(booking: { status: BookingStatus; updatedAt: number }): number | null {
  return ENDED.includes(booking.status) ? booking.updatedAt + CHAT_LIMITS.openAfterEndMs : null;
}

/**
 * Quick replies: a message that is one of these keys is shown in the reader's language. Who may send
 * which is a matter of sense, not of rules: both sides see all of them, ordered for their role.
 */
export const QUICK_REPLIES = [
  "on_my_way",
  "running_late_10",
  "arrived",
  "call_gate",
  "which_gate",
  "bring_parts",
  "thanks",
  "ok",
] as const;
export type QuickReply = (typeof QUICK_REPLIES)[number];

export const QUICK_REPLIES_BY_ROLE: Record<"customer" | "professional", readonly QuickReply[]> = {
  professional: ["on_my_way", "running_late_10", "arrived", "which_gate", "thanks", "ok"],
  customer: ["call_gate", "bring_parts", "thanks", "ok", "running_late_10"],
};

/** The English words of each quick reply, for phone alerts and API clients (the app words its own). */
export const QUICK_REPLY_TEXT: Record<QuickReply, { en: string; ne: string }> = {
  on_my_way: { en: "On my way", ne: "म आउँदै छु" },
  running_late_10: { en: "Running 10 minutes late", ne: "१० मिनेट ढिला हुँदै छु" },
  arrived: { en: "I have arrived", ne: "म आइपुगेँ" },
  call_gate: { en: "Please call me at the gate", ne: "कृपया गेटमा फोन गर्नुहोस्" },
  which_gate: { en: "Which gate should I use?", ne: "कुन गेटबाट आउने?" },
  bring_parts: { en: "Please bring the parts needed", ne: "कृपया चाहिने सामान ल्याउनुहोस्" },
  thanks: { en: "Thank you!", ne: "धन्यवाद!" },
  ok: { en: "OK", ne: "हुन्छ" },
};
