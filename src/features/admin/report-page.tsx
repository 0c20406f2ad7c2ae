import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Link } from "@/components/link";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { QuickReply } from "@convex/rules/chat";
import { MODERATION_FIELDS } from "@convex/rules/moderation";
import { bookingStatusBadge } from "@/components/booking-status";
import { Badge } from "@/components/ui/badge";
import { ReportStatusBadge } from "@/components/report-status-badge";
import { Button } from "@/components/ui/button";
import { TextareaField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { reportedBy } from "@/features/admin/reported-by";
import { SettleCashForm } from "@/features/admin/settle-cash-form";
import { SuspensionForm } from "@/features/admin/suspension-form";
import { lengthMessage } from "@/lib/length-message";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";
import { reportCategoryLabel } from "@/i18n/moderation";
import { quickReplyText } from "@/i18n/quick-replies";
import { localServiceName } from "@/i18n/services";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";

const NOTE = MODERATION_FIELDS.resolutionNote;

/** /admin/reports/:reportId: a report with what it is about; resolve it with a note, or suspend a party. */
export default function ReportPage() {
  const { reportId = "" } = useParams();
  return (
    <AdminPageLayout title={m.admin_report_title()} loadError={m.admin_reports_load_failed()}>
      <Link
        to={paths.adminReports()}
        className="mt-1 inline-block text-sm text-brand-700 underline"
      >
        {m.admin_report_back()}
      </Link>
      <ReportDetail reportId={reportId as Id<"reports">} />
    </AdminPageLayout>
  );
}

function ReportDetail({ reportId }: { reportId: Id<"reports"> }) {
  const r = useQuery(api.adminReports.get, { reportId });
  const [suspending, setSuspending] = useState<Id<"users"> | null>(null);
  if (r === undefined) return <LoadingState label={m.admin_reports_loading()} />;
  if (r === null)
    return (
      <div className="mt-4">
        <EmptyState title={m.admin_report_missing()} />
      </div>
    );
  const booking = r.booking;
  const parties = r.parties
    ? [
        { ...r.parties.customer, label: m.label_customer() },
        { ...r.parties.professional, label: m.label_professional() },
      ]
    : [];
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold text-slate-900">{reportCategoryLabel(r.category)}</h2>
          <ReportStatusBadge status={r.status} />
        </div>
        <p className="mt-1 text-sm text-slate-600">{reportedBy(r)}</p>
        <p className="mt-3 text-sm break-words whitespace-pre-line text-slate-900" translate="no">
          {r.text}
        </p>
        <h3 className="mt-4 text-sm font-semibold text-slate-900">
          {r.target === "review"
            ? m.admin_report_about_review()
            : r.target === "message"
              ? m.admin_report_about_message()
              : m.admin_report_about_booking()}
        </h3>
        {r.review && (
          <div className="mt-2 rounded-lg bg-slate-50 p-3 text-sm">
            <p className="font-medium">
              {m.admin_booking_review({ rating: formatNumber(r.review.rating) })}
            </p>
            {r.review.comment && (
              <p className="mt-1 break-words" translate="no">
                {r.review.comment}
              </p>
            )}
            {r.review.reply && (
              <p className="mt-1 break-words text-slate-600">
                {m.admin_booking_review_reply({ reply: r.review.reply })}
              </p>
            )}
          </div>
        )}
        {r.messages && <ReportedMessages messages={r.messages} parties={r.parties} />}
        {r.upheld && <p className="mt-2 text-sm text-red-800">{m.admin_report_upheld()}</p>}
        {booking && <ReadChatButton bookingId={booking._id} />}
        {booking && (
          <p className="mt-2 text-sm">
            <Link to={paths.adminBooking(booking._id)} className="text-brand-700 underline">
              {booking.services.map((s) => localServiceName(s.name)).join(m.list_separator())}
            </Link>{" "}
            · {formatDateTime(booking.scheduledFor)} ·{" "}
            {bookingStatusBadge(booking.status, "admin").label}
          </p>
        )}
        <ul className="mt-4 space-y-2">
          {parties.map((p) => (
            <li
              key={p.userId}
              className="flex flex-wrap items-center justify-between gap-2 text-sm"
            >
              <span>
                {p.label}:{" "}
                <Link to={paths.adminUser(p.userId)} className="text-brand-700 underline">
                  {p.name || m.admin_unnamed_user()}
                </Link>{" "}
                {p.suspended && <Badge tone="danger">{m.admin_user_suspended()}</Badge>}
              </span>
              {!p.suspended && (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setSuspending(suspending === p.userId ? null : p.userId)}
                >
                  {m.admin_report_suspend({ name: p.name || m.admin_unnamed_user() })}
                </Button>
              )}
            </li>
          ))}
        </ul>
        {suspending && (
          <div className="mt-3 rounded-lg bg-red-50 p-3 ring-1 ring-red-200">
            <SuspensionForm
              userId={suspending}
              name={parties.find((p) => p.userId === suspending)?.name ?? ""}
              suspended={false}
              onDone={() => setSuspending(null)}
            />
          </div>
        )}
      </section>
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        {r.status === "resolved" ? (
          <div role="status">
            <h2 className="font-semibold text-slate-900">
              {m.admin_report_resolved_by({
                name: r.resolvedBy ?? "",
                when: r.resolvedAt === null ? "" : formatDateTime(r.resolvedAt),
              })}
            </h2>
            <p className="mt-2 text-sm break-words whitespace-pre-line" translate="no">
              {r.resolutionNote}
            </p>
          </div>
        ) : r.category === "cash_dispute" && booking ? (
          <SettleCashForm reportId={r._id} bookingId={booking._id} />
        ) : (
          <ResolveForm reportId={r._id} aboutMessage={r.target === "message"} />
        )}
      </section>
    </div>
  );
}

function ResolveForm({
  reportId,
  aboutMessage,
}: {
  reportId: Id<"reports">;
  aboutMessage: boolean;
}) {
  const resolve = useMutation(api.adminReports.resolve);
  const [note, setNote] = useState("");
  const [uphold, setUphold] = useState(false);
  const [tried, setTried] = useState(false);
  const { busy, run } = useBusyCall();
  const problem = lengthMessage(note, NOTE, (min) => m.admin_report_note_short({ min }));
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problem) return;
    const resolved = await run(
      () => resolve({ reportId, note: note.trim(), ...(aboutMessage ? { uphold } : {}) }),
      m.admin_report_resolve_failed(),
    );
    if (resolved) toast.success(m.admin_report_resolved_toast());
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
      <h2 className="font-semibold text-slate-900">{m.admin_report_resolve_title()}</h2>
      <TextareaField
        label={m.label_note()}
        hint={m.admin_report_note_hint()}
        rows={4}
        maxLength={NOTE.max}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={tried ? problem : undefined}
      />
      {aboutMessage && (
        <label className="flex min-h-11 items-center gap-3 text-sm">
          <input
            type="checkbox"
            checked={uphold}
            onChange={(e) => setUphold(e.target.checked)}
            className="h-5 w-5"
          />
          {m.admin_report_uphold()}
        </label>
      )}
      <Button type="submit" disabled={busy}>
        {m.admin_report_resolve()}
      </Button>
    </form>
  );
}

type ReportedMessage = {
  _id: string;
  _creationTime: number;
  senderId: string;
  reported: boolean;
  text: string | null;
  quickReply: QuickReply | null;
  photoCount: number;
};

/** The reported message among the few around it, as the parties wrote them. */
function ReportedMessages({
  messages,
  parties,
}: {
  messages: ReportedMessage[];
  parties: { customer: { userId: string; name: string }; professional: { name: string } } | null;
}) {
  return (
    <div className="mt-2">
      <h4 className="text-xs font-semibold text-slate-600 uppercase">
        {m.admin_report_messages()}
      </h4>
      <ol className="mt-1 space-y-1 text-sm">
        {messages.map((msg) => (
          <li
            key={msg._id}
            className={`rounded-lg p-2 ${msg.reported ? "bg-red-50 ring-1 ring-red-200" : "bg-slate-50"}`}
          >
            <p className="text-xs text-slate-500">
              {msg.senderId === parties?.customer.userId
                ? parties.customer.name
                : (parties?.professional.name ?? "")}{" "}
              · {formatDateTime(msg._creationTime)}
            </p>
            <p className="break-words whitespace-pre-wrap" translate="no">
              {msg.quickReply ? quickReplyText(msg.quickReply) : msg.text}
              {msg.photoCount > 0 && ` 📷 ×${formatNumber(msg.photoCount)}`}
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Opens the booking's conversation; the server records the reading and both parties see it. */
function ReadChatButton({ bookingId }: { bookingId: Id<"bookings"> }) {
  const open = useMutation(api.chat.openAsAdmin);
  const navigate = useNavigate();
  return (
    <Button
      size="sm"
      variant="secondary"
      className="mt-3"
      onClick={() =>
        void open({ bookingId })
          .then(() => navigate(paths.bookingChat(bookingId)))
          .catch((error: unknown) => toast.error(errorMessage(error, m.error_forbidden())))
      }
    >
      {m.admin_read_chat()}
    </Button>
  );
}
