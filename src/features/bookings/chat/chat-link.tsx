import { useQuery } from "convex/react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";

/** Unread messages per booking of the viewer, live (one subscription however many cards ask). */
export function useChatUnread(): ReadonlyMap<string, number> {
  const rows = useQuery(api.chat.unread, {});
  return new Map((rows ?? []).map((r) => [r.bookingId, r.unread]));
}

function UnreadDot({ count }: { count: number }) {
  return (
    <span className="min-w-5 rounded-full bg-red-600 px-1.5 text-center text-xs leading-5 font-semibold text-white">
      {count > 99 ? `${formatNumber(99)}+` : formatNumber(count)}
    </span>
  );
}

/** "Chat" on a booking card, with its unread count. */
export function ChatLink({ bookingId }: { bookingId: Id<"bookings"> }) {
  const unread = useChatUnread().get(bookingId) ?? 0;
  return (
    <Link
      to={paths.bookingChat(bookingId)}
      aria-label={unread ? m.chat_open_unread({ count: formatNumber(unread) }) : m.chat_open()}
      className="mt-3 inline-flex min-h-11 items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 px-3 text-sm font-medium text-brand-800 hover:bg-brand-100"
    >
      <ChatIcon />
      {m.chat_open()}
      {unread > 0 && <UnreadDot count={unread} />}
    </Link>
  );
}

function ChatIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
      <path d="M3 4a2 2 0 012-2h10a2 2 0 012 2v8a2 2 0 01-2 2H8l-4 4v-4a2 2 0 01-1-1.7z" />
    </svg>
  );
}

/**
 * The header's messages button: shown while messages wait unread, it opens the conversation that
 * has them (the first of them, when several do).
 */
export function ChatUnreadButton() {
  const rows = useQuery(api.chat.unread, {});
  if (!rows || rows.length === 0) return null;
  const total = rows.reduce((sum, r) => sum + r.unread, 0);
  return (
    <Link
      to={paths.bookingChat(rows[0].bookingId)}
      aria-label={m.chat_header_unread({ count: formatNumber(total) })}
      className="relative flex h-11 w-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
    >
      <ChatIcon />
      <span className="absolute -top-0.5 -right-0.5">
        <UnreadDot count={total} />
      </span>
    </Link>
  );
}
