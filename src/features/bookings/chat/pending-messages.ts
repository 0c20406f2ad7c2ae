import { useMutation } from "convex/react";
import { useCallback, useRef, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { QuickReply } from "@convex/rules/chat";
import { m } from "@/i18n/paraglide/messages";
import { errorMessage } from "@/lib/errors";
import { uploadImage } from "@/lib/upload";

/** What the sender wrote, before the server has it. */
export type Draft = { text?: string; quickReply?: QuickReply; files: File[] };

/** A message on its way: "sending…" until the server has it, or failed with a reason and a retry. */
export type PendingMessage = {
  key: string;
  draft: Draft;
  previews: string[];
  status: "sending" | "failed";
  error?: string;
};

/**
 * Messages the viewer sent that the conversation does not show yet. A message sent offline stays
 * "sending…": the Convex client holds the mutation and sends it once, with its request id, when the
 * connection returns, and resolves it only once the conversation's query shows the message — so the
 * pending copy gives way to the real one without a gap or a double.
 */
export function usePendingMessages(bookingId: Id<"bookings">) {
  const send = useMutation(api.chat.send);
  const uploadUrl = useMutation(api.files.generateUploadUrl);
  const [items, setItems] = useState<PendingMessage[]>([]);
  // photos already uploaded for a message, so a retry does not upload them again
  const uploaded = useRef(new Map<string, string[]>());

  const deliver = useCallback(
    async (key: string, draft: Draft) => {
      setItems((list) =>
        list.map((p) => (p.key === key ? { ...p, status: "sending", error: undefined } : p)),
      );
      try {
        let photos = uploaded.current.get(key);
        if (photos === undefined && draft.files.length > 0) {
          photos = [];
          for (const file of draft.files) photos.push(await uploadImage(await uploadUrl({}), file));
          uploaded.current.set(key, photos);
        }
        await send({ bookingId, text: draft.text, quickReply: draft.quickReply, photos });
        uploaded.current.delete(key);
        setItems((list) => {
          list.find((p) => p.key === key)?.previews.forEach((url) => URL.revokeObjectURL(url));
          return list.filter((p) => p.key !== key);
        });
      } catch (error) {
        setItems((list) =>
          list.map((p) =>
            p.key === key
              ? { ...p, status: "failed", error: errorMessage(error, m.chat_upload_failed()) }
              : p,
          ),
        );
      }
    },
    [bookingId, send, uploadUrl],
  );

  const sendDraft = useCallback(
    (draft: Draft) => {
      const key = crypto.randomUUID();
      const previews = draft.files.map((f) => URL.createObjectURL(f));
      setItems((list) => [...list, { key, draft, previews, status: "sending" }]);
      void deliver(key, draft);
    },
    [deliver],
  );

  const retry = useCallback(
    (key: string) => {
      const item = items.find((p) => p.key === key);
      if (item) void deliver(key, item.draft);
    },
    [items, deliver],
  );

  const discard = useCallback((key: string) => {
    uploaded.current.delete(key);
    setItems((list) => {
      list.find((p) => p.key === key)?.previews.forEach((url) => URL.revokeObjectURL(url));
      return list.filter((p) => p.key !== key);
    });
  }, []);

  return { items, send: sendDraft, retry, discard };
}
