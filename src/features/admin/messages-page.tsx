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
import { m as t } from "@/i18n/paraglide/messages";

/** /admin/messages: what people wrote through the contact form, unhandled first; reply by email. */
export default function MessagesPage() {
  const [all, setAll] = useState(false);
  return (
    <AdminPageLayout
      title={t.admin_nav_messages()}
      loadError={t.admin_messages_load_failed()}
      controls={
        <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          {t.admin_messages_show_handled()}
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
  if (messages === undefined) return <LoadingState label={t.admin_messages_loading()} />;
  if (messages.length === 0)
    return <EmptyState title={all ? t.admin_messages_none() : t.admin_messages_none_unread()} />;

  async function mark(messageId: Id<"contactMessages">, handled: boolean) {
    try {
      await setHandled({ messageId, handled });
    } catch (e) {
      toast.error(errorMessage(e, t.admin_messages_update_failed()));
    }
  }

  return (
    <ul className="mt-4 space-y-3">
      {messages.map((m) => (
        <li
          key={m._id}
          aria-label={t.admin_messages_from({ name: m.name })}
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold text-slate-900" translate="no">
              {m.name}{" "}
              <span className="font-normal break-all text-slate-600">&lt;{m.email}&gt;</span>
              {m.phone && <span className="font-normal text-slate-600"> · {m.phone}</span>}
            </p>
            <span className="text-xs text-slate-500">{formatDateTime(m._creationTime)}</span>
          </div>
          <p className="mt-2 text-sm whitespace-pre-line text-slate-800" translate="no">
            {m.message}
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {m.handledAt !== null && <Badge tone="success">{t.admin_messages_handled()}</Badge>}
            <a
              className={buttonClasses("secondary", "sm")}
              href={`mailto:${m.email}?${new URLSearchParams({ subject: t.admin_messages_reply_subject() }).toString().replace(/\+/g, "%20")}`}
            >
              {t.admin_messages_reply()}
            </a>
            <Button size="sm" onClick={() => void mark(m._id, m.handledAt === null)}>
              {m.handledAt === null
                ? t.admin_messages_mark_handled()
                : t.admin_messages_mark_unhandled()}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
