import { useConvexAuth, useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { useCallback, useEffect, useState } from "react";
import { Navigate, useLocation, useNavigate, useParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CHAT_LIMITS } from "@convex/rules/chat";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { m } from "@/i18n/paraglide/messages";
import { localServiceName } from "@/i18n/services";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";
import { useNow } from "@/lib/use-now";
import { useOnline } from "@/lib/use-online";
import { ReportDialog } from "@/features/bookings/report-action";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { usePendingMessages } from "./pending-messages";

/** /bookings/:bookingId/chat — a booking's conversation, for its two parties (and an admin reading a reported one). */
export default function ChatPage() {
  const { bookingId } = useParams();
  const { isLoading, isAuthenticated } = useConvexAuth();
  const location = useLocation();
  if (isLoading) return <LoadingState />;
  if (!isAuthenticated) return <Navigate to={paths.login(location.pathname)} replace />;
  return <Conversation key={bookingId} bookingId={bookingId as Id<"bookings">} />;
}

function Conversation({ bookingId }: { bookingId: Id<"bookings"> }) {
  const state = useQuery(api.chat.state, { bookingId });
  const messages = usePaginatedQuery(
    api.chat.messages,
    { bookingId },
    { initialNumItems: CHAT_LIMITS.pageSize },
  );
  const pending = usePendingMessages(bookingId);
  const [reporting, setReporting] = useState<Id<"chatMessages"> | null>(null);
  const online = useOnline();
  const now = useNow();
  const fill = useFillViewport();
  const otherTyping = useFresh(state?.otherTypingAt ?? null);
  const navigate = useNavigate();
  useMarkRead(bookingId, messages.results[0]?._id, state?.side);

  if (state === undefined) return <LoadingState />;
  if (state === null)
    return (
      <div className="mx-auto max-w-2xl p-4">
        <EmptyState title={m.chat_not_found()} />
      </div>
    );

  const other = state.side === "customer" ? state.professionalName : state.customerName;
  const title =
    state.side === "admin"
      ? `${state.customerName} · ${state.professionalName}`
      : m.chat_title({ name: other });
  const closed = state.closesAt !== null && state.closesAt <= now;
  const canWrite = !closed && !state.blocked;
  const typing = otherTyping && state.side !== "admin" ? m.chat_typing({ name: other }) : null;

  return (
    <div ref={fill} className="mx-auto flex w-full max-w-2xl min-w-0 flex-col">
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2">
        <button
          type="button"
          onClick={() => void navigate(-1)}
          className="flex h-11 min-w-11 items-center justify-center rounded-lg px-2 text-sm text-brand-700 hover:bg-slate-100"
        >
          ← {m.chat_back()}
        </button>
        <div className="min-w-0 flex-1">
          <h1 className="truncate font-semibold text-slate-900">{title}</h1>
          <p className="truncate text-xs text-slate-500" aria-live="polite">
            {typing ?? state.services.map((s) => localServiceName(s)).join(m.list_separator())}
          </p>
        </div>
      </header>

      <Notices
        adminReads={state.adminReads}
        admin={state.side === "admin"}
        closesAt={closed ? state.closesAt : null}
        blocked={state.blocked}
        offline={!online}
      />

      <MessageList
        messages={messages}
        pending={pending.items}
        otherReadUpTo={state.otherReadUpTo}
        names={{ customer: state.customerName, professional: state.professionalName }}
        canReport={state.side !== "admin"}
        onReport={setReporting}
        onRetry={pending.retry}
        onDiscard={pending.discard}
      />

      {state.side !== "admin" && canWrite && (
        <Composer bookingId={bookingId} side={state.side} onSend={pending.send} />
      )}
      {reporting && (
        <ReportDialog
          bookingId={bookingId}
          messageId={reporting}
          onClose={() => setReporting(null)}
        />
      )}
    </div>
  );
}

function Notices({
  adminReads,
  admin,
  closesAt,
  blocked,
  offline,
}: {
  adminReads: number[];
  admin: boolean;
  closesAt: number | null;
  blocked: boolean;
  offline: boolean;
}) {
  const lines = [
    ...(admin ? [m.chat_admin_reading()] : [m.chat_privacy_note()]),
    ...adminReads.map((at) => m.chat_admin_read({ date: formatDateTime(at) })),
    ...(closesAt !== null ? [m.chat_closed({ date: formatDateTime(closesAt) })] : []),
    ...(blocked ? [m.chat_blocked()] : []),
  ];
  return (
    <div className="space-y-1 border-b border-slate-100 bg-slate-50 px-3 py-2 text-xs text-slate-600">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {offline && (
        <p role="status" className="font-medium text-amber-800">
          {m.chat_offline()}
        </p>
      )}
    </div>
  );
}

/** Tells the server the viewer has seen the newest message, whenever it changes while the page is visible. */
function useMarkRead(
  bookingId: Id<"bookings">,
  newestId: string | undefined,
  side: "customer" | "professional" | "admin" | undefined,
) {
  const markRead = useMutation(api.chat.markRead);
  useEffect(() => {
    if (side === undefined || side === "admin") return;
    const mark = () => {
      if (document.visibilityState === "visible") void markRead({ bookingId }).catch(() => {});
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [bookingId, newestId, side, markRead]);
}

/**
 * Sizes the conversation to the rest of the screen below the header, whatever the header's height
 * (it wraps on phones), so the list scrolls inside and the composer stays at the bottom.
 */
function useFillViewport() {
  return useCallback((el: HTMLDivElement | null) => {
    if (el === null) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      el.style.height = `${Math.max(320, window.innerHeight - top)}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, []);
}

/**
 * Whether "typing…" shows: for a few seconds after each new report of the other side's, by this
 * device's clock (the server's time stamp only tells that a new report came). A report already there
 * when the page opens is old news.
 */
function useFresh(at: number | null): boolean {
  const [seen, setSeen] = useState({ at, fresh: false });
  if (seen.at !== at) setSeen({ at, fresh: at !== null });
  useEffect(() => {
    if (at === null) return;
    const timer = setTimeout(
      () => setSeen((s) => (s.at === at ? { at, fresh: false } : s)),
      CHAT_LIMITS.typingShownMs,
    );
    return () => clearTimeout(timer);
  }, [at]);
  return seen.fresh;
}
