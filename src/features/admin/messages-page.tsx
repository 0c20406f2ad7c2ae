import { useState } from "react";
import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";

/** /admin/messages: what people wrote through the contact form, unhandled first; reply by email. */
export default function MessagesPage() {
  const [all, setAll] = useState(false);
  return (
    <AdminPageLayout
      title="Messages"
      loadError="Messages could not be loaded."
      controls={
        <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          Show handled messages too
        </label>
      }
    >
      <Inbox all={all} />
    </AdminPageLayout>
  );
}

function Inbox({ all }: { all: boolean }) {
  const messages = useQuery(api.admin.messages, all ? {} : { unhandledOnly: true });
  const setHandled = useMutation(api.admin.setMessageHandled);
  if (messages === undefined) return <LoadingState label="Loading messages…" />;
  if (messages.length === 0)
    return <EmptyState title={all ? "No messages yet." : "No unread messages."} />;

  async function mark(messageId: Id<"contactMessages">, handled: boolean) {
    try {
      await setHandled({ messageId, handled });
    } catch (e) {
      toast.error(errorMessage(e, "The message could not be updated."));
    }
  }

  return (
    <ul className="mt-4 space-y-3">
      {messages.map((m) => (
        <li
          key={m._id}
          aria-label={`Message from ${m.name}`}
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold text-slate-900">
              {m.name}{" "}
              <span className="font-normal break-all text-slate-600">&lt;{m.email}&gt;</span>
              {m.phone && <span className="font-normal text-slate-600"> · {m.phone}</span>}
            </p>
            <span className="text-xs text-slate-500">{formatDateTime(m._creationTime)}</span>
          </div>
          <p className="mt-2 text-sm whitespace-pre-line text-slate-800">{m.message}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {m.handledAt !== null && <Badge tone="success">Handled</Badge>}
            <a
              className={buttonClasses("secondary", "sm")}
              href={`mailto:${m.email}?${new URLSearchParams({ subject: "Re: your message to GharSewa" }).toString().replace(/\+/g, "%20")}`}
            >
              Reply by email
            </a>
            <Button size="sm" onClick={() => void mark(m._id, m.handledAt === null)}>
              {m.handledAt === null ? "Mark handled" : "Mark unhandled"}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
