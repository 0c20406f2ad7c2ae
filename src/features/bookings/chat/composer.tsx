import { useConvexConnectionState, useMutation } from "convex/react";
import { useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CHAT_LIMITS, QUICK_REPLIES_BY_ROLE } from "@convex/rules/chat";
import { Button } from "@/components/ui/button";
import { m } from "@/i18n/paraglide/messages";
import { quickReplyText } from "@/i18n/quick-replies";
import { formatNumber } from "@/lib/numbers";
import { IMAGE_ACCEPT, imageFileProblem } from "@/lib/upload";
import type { Draft } from "./pending-messages";

/** The counter shows once a message gets this close to its limit. */
const COUNTER_FROM = CHAT_LIMITS.textMaxLength - 200;

/** Writing a message: words, photos (up to four) or a quick reply in one tap. */
export function Composer({
  bookingId,
  side,
  onSend,
}: {
  bookingId: Id<"bookings">;
  side: "customer" | "professional";
  onSend: (draft: Draft) => void;
}) {
  const [text, setText] = useState("");
  const [photos, setPhotos] = useState<{ file: File; url: string }[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const reportTyping = useTypingReporter(bookingId);
  const picker = useRef<HTMLInputElement>(null);
  const tooLong = text.trim().length > CHAT_LIMITS.textMaxLength;

  function submit() {
    const words = text.trim();
    if ((words === "" && photos.length === 0) || tooLong) return;
    onSend({ text: words || undefined, files: photos.map((p) => p.file) });
    photos.forEach((p) => URL.revokeObjectURL(p.url));
    setText("");
    setPhotos([]);
    setProblem(null);
  }

  function pick(list: FileList | null) {
    const picked = Array.from(list ?? []);
    const bad = picked.map(imageFileProblem).find((p) => p !== null);
    const fits = picked.filter((f) => imageFileProblem(f) === null);
    const room = CHAT_LIMITS.photosPerMessage - photos.length;
    setProblem(
      bad ??
        (fits.length > room
          ? m.chat_too_many_photos({ max: formatNumber(CHAT_LIMITS.photosPerMessage) })
          : null),
    );
    const added = fits.slice(0, Math.max(0, room));
    setPhotos([...photos, ...added.map((file) => ({ file, url: URL.createObjectURL(file) }))]);
  }

  return (
    <div className="border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]">
      <div
        role="group"
        aria-label={m.chat_quick_replies()}
        className="-mx-3 flex gap-2 overflow-x-auto px-3 pb-2"
      >
        {QUICK_REPLIES_BY_ROLE[side].map((key) => (
          <button
            key={key}
            type="button"
            onClick={() => onSend({ quickReply: key, files: [] })}
            className="min-h-11 shrink-0 rounded-full border border-slate-300 px-3 text-sm text-slate-700 hover:bg-slate-100"
          >
            {quickReplyText(key)}
          </button>
        ))}
      </div>
      {photos.length > 0 && (
        <ul className="mb-2 flex gap-2">
          {photos.map(({ url }, i) => (
            <li key={url} className="relative">
              <img src={url} alt="" className="h-16 w-16 rounded-lg object-cover" />
              <button
                type="button"
                aria-label={m.chat_remove_photo({ n: formatNumber(i + 1) })}
                onClick={() => {
                  URL.revokeObjectURL(url);
                  setPhotos(photos.filter((_, j) => j !== i));
                }}
                className="absolute -top-2 -right-2 flex h-7 w-7 items-center justify-center rounded-full bg-slate-800 text-white"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p role="alert" className="mb-1 text-xs text-red-700">
          {problem}
        </p>
      )}
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <button
          type="button"
          aria-label={m.chat_add_photos()}
          onClick={() => picker.current?.click()}
          className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-6 w-6 fill-current">
            <path d="M4 5a2 2 0 00-2 2v7a2 2 0 002 2h12a2 2 0 002-2V7a2 2 0 00-2-2h-2l-1.5-2h-5L6 5zm6 9a3.5 3.5 0 110-7 3.5 3.5 0 010 7z" />
          </svg>
        </button>
        <input
          ref={picker}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          hidden
          onChange={(e) => {
            pick(e.target.files);
            e.target.value = "";
          }}
        />
        <label className="min-w-0 flex-1">
          <span className="sr-only">{m.chat_message_label()}</span>
          <textarea
            rows={1}
            value={text}
            placeholder={m.chat_placeholder()}
            onChange={(e) => {
              setText(e.target.value);
              reportTyping();
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                submit();
              }
            }}
            className="field-sizing-content max-h-32 min-h-11 w-full resize-none rounded-2xl border border-slate-300 px-3 py-2.5 text-sm focus:border-brand-600 focus:outline-none"
          />
          {text.length >= COUNTER_FROM && (
            <span
              className={`block text-right text-xs ${tooLong ? "text-red-700" : "text-slate-500"}`}
            >
              {m.chat_counter({
                count: formatNumber(text.trim().length),
                max: formatNumber(CHAT_LIMITS.textMaxLength),
              })}
            </span>
          )}
        </label>
        <Button type="submit" disabled={tooLong || (text.trim() === "" && photos.length === 0)}>
          {m.chat_send()}
        </Button>
      </form>
    </div>
  );
}

/**
 * Reports "typing…" at most every couple of seconds, and only while connected: the Convex client
 * would otherwise hold every keystroke's report and send them all on reconnect.
 */
function useTypingReporter(bookingId: Id<"bookings">) {
  const typing = useMutation(api.chat.typing);
  const { isWebSocketConnected } = useConvexConnectionState();
  const last = useRef(0);
  return () => {
    const now = Date.now();
    if (!isWebSocketConnected || now - last.current < CHAT_LIMITS.typingEveryMs) return;
    last.current = now;
    void typing({ bookingId }).catch(() => {});
  };
}
