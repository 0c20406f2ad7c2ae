import type { UsePaginatedQueryReturnType } from "convex/react";
import { useLayoutEffect, useRef } from "react";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { m } from "@/i18n/paraglide/messages";
import { quickReplyText } from "@/i18n/quick-replies";
import { formatDay, formatKathmanduTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import type { PendingMessage } from "./pending-messages";

type Messages = UsePaginatedQueryReturnType<typeof api.chat.messages>;
type Message = Messages["results"][number];

/** Near enough to the bottom to follow new messages down. */
const FOLLOW_PX = 120;
/** This close to the top, the next older page loads. */
const LOAD_OLDER_PX = 200;

/**
 * The conversation, oldest at the top. It opens at the newest message, follows new ones while the
 * reader is at the bottom, stays put when they have scrolled up, and keeps the same message in view
 * when an older page loads above.
 */
export function MessageList({
  messages,
  pending,
  otherReadUpTo,
  names,
  canReport,
  onReport,
  onRetry,
  onDiscard,
}: {
  messages: Messages;
  pending: PendingMessage[];
  otherReadUpTo: number;
  names: { customer: string; professional: string };
  canReport: boolean;
  onReport: (id: Id<"chatMessages">) => void;
  onRetry: (key: string) => void;
  onDiscard: (key: string) => void;
}) {
  const shown = [...messages.results].reverse();
  const scroller = useRef<HTMLDivElement>(null);
  const before = useRef({ height: 0, top: 0, oldest: "", newest: "", following: true });
  const oldest = shown[0]?._id ?? "";
  const newest = `${shown.at(-1)?._id ?? ""}|${pending.length}`;
  const newestMine = pending.length > 0 || shown.at(-1)?.mine === true;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const was = before.current;
    if (was.oldest !== "" && oldest !== was.oldest && newest === was.newest) {
      el.scrollTop = was.top + (el.scrollHeight - was.height); // older page above: keep the view
    } else if (newest !== was.newest && (was.following || newestMine)) {
      el.scrollTop = el.scrollHeight;
    }
    before.current = {
      height: el.scrollHeight,
      top: el.scrollTop,
      oldest,
      newest,
      following: el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX,
    };
  }, [oldest, newest, newestMine]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    before.current = {
      ...before.current,
      height: el.scrollHeight,
      top: el.scrollTop,
      following: el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX,
    };
    if (el.scrollTop < LOAD_OLDER_PX && messages.status === "CanLoadMore") messages.loadMore(30);
  }

  const seenId = [...shown].reverse().find((msg) => msg.mine)?._id;
  const seen = shown.find((msg) => msg._id === seenId);

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      className="flex-1 overflow-y-auto bg-slate-50 px-3 py-3"
      role="log"
      aria-label={m.chat_messages_label()}
    >
      {messages.status === "CanLoadMore" && (
        <div className="mb-2 text-center">
          <Button variant="ghost" size="sm" onClick={() => messages.loadMore(30)}>
            {m.chat_older()}
          </Button>
        </div>
      )}
      {messages.status === "LoadingFirstPage" ? (
        <LoadingState />
      ) : shown.length === 0 && pending.length === 0 ? (
        <EmptyState title={m.chat_empty()} />
      ) : null}
      <ol className="space-y-2">
        {shown.map((msg, i) => (
          <li
            key={msg._id}
            className="[contain-intrinsic-size:auto_4rem] [content-visibility:auto]"
          >
            {(i === 0 ||
              formatDay(shown[i - 1]._creationTime) !== formatDay(msg._creationTime)) && (
              <p className="my-2 text-center text-xs text-slate-500">
                {formatDay(msg._creationTime)}
              </p>
            )}
            <Bubble
              mine={msg.mine}
              sender={msg.mine ? m.chat_sender_you() : names[msg.from]}
              meta={formatKathmanduTime(msg._creationTime)}
            >
              <Body msg={msg} />
              {canReport && !msg.mine && (
                <button
                  type="button"
                  onClick={() => onReport(msg._id)}
                  className="mt-1 min-h-6 text-xs text-slate-500 underline hover:text-red-700"
                >
                  {m.chat_report()}
                </button>
              )}
            </Bubble>
            {seen?._id === msg._id && seen._creationTime <= otherReadUpTo && (
              <p className="mt-0.5 text-right text-xs text-slate-500">{m.chat_seen()}</p>
            )}
          </li>
        ))}
        {pending.map((p) => (
          <li key={p.key}>
            <Bubble
              mine
              sender={m.chat_sender_you()}
              meta={p.status === "sending" ? m.state_sending() : ""}
              failed={p.status === "failed"}
            >
              {p.draft.quickReply && <p>{quickReplyText(p.draft.quickReply)}</p>}
              {p.draft.text && <p className="break-words whitespace-pre-wrap">{p.draft.text}</p>}
              <Photos urls={p.previews} />
              {p.status === "failed" && (
                <div role="alert" className="mt-1 text-xs">
                  <p>{m.chat_failed({ reason: p.error ?? "" })}</p>
                  <div className="mt-1 flex gap-2">
                    <Button size="sm" variant="secondary" onClick={() => onRetry(p.key)}>
                      {m.action_retry()}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => onDiscard(p.key)}>
                      {m.chat_discard()}
                    </Button>
                  </div>
                </div>
              )}
            </Bubble>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Body({ msg }: { msg: Message }) {
  const photos = msg.photos.filter((url): url is string => url !== null);
  return (
    <>
      {msg.quickReply && <p>{quickReplyText(msg.quickReply)}</p>}
      {msg.text && <p className="break-words whitespace-pre-wrap">{msg.text}</p>}
      <Photos urls={photos} />
      {!msg.text && !msg.quickReply && photos.length === 0 && (
        <p className="text-xs italic">{m.chat_photo_removed()}</p>
      )}
    </>
  );
}

function Photos({ urls }: { urls: string[] }) {
  if (urls.length === 0) return null;
  return (
    <div className={`mt-1 grid gap-1 ${urls.length > 1 ? "grid-cols-2" : "grid-cols-1"}`}>
      {urls.map((url, i) => (
        <a key={url} href={url} target="_blank" rel="noopener noreferrer">
          <img
            src={url}
            alt={m.chat_photo_alt({ n: formatNumber(i + 1) })}
            loading="lazy"
            className="max-h-56 w-full rounded-lg bg-slate-200 object-cover"
          />
        </a>
      ))}
    </div>
  );
}

function Bubble({
  mine,
  sender,
  meta,
  failed = false,
  children,
}: {
  mine: boolean;
  sender: string;
  meta: string;
  failed?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className={`flex ${mine ? "justify-end" : "justify-start"}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm shadow-sm ${
          failed
            ? "bg-red-50 text-red-900 ring-1 ring-red-200"
            : mine
              ? "bg-brand-700 text-white"
              : "bg-white text-slate-900 ring-1 ring-slate-200"
        }`}
      >
        <p className="sr-only">{sender}</p>
        {children}
        {meta && (
          <p
            className={`mt-0.5 text-right text-[11px] ${mine && !failed ? "text-white/80" : "text-slate-500"}`}
          >
            {meta}
          </p>
        )}
      </div>
    </div>
  );
}
