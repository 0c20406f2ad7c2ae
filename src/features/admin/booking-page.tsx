import { useState } from "react";
import { useQuery } from "convex/react";
import { useParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { stepsFor } from "@convex/rules/bookingLifecycle";
import { bookingStatusBadge } from "@/components/booking-status";
import { Button } from "@/components/ui/button";
import { CancelBookingDialog } from "@/features/admin/cancel-booking-dialog";
import { Badge } from "@/components/ui/badge";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { eventActor, eventLabel } from "@/features/admin/booking-events";
import { m } from "@/i18n/paraglide/messages";
import { reportCategoryLabel, reportStatusLabel } from "@/i18n/moderation";
import { localCityName } from "@/i18n/places";
import { localServiceName } from "@/i18n/services";
import { formatDateTime, withCity } from "@/lib/format";
import { formatNrs } from "@/lib/rupees";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";

/** /admin/bookings/:bookingId: one booking, its parties, and its event log: who did what, when. */
export default function BookingPage() {
  const { bookingId = "" } = useParams();
  return (
    <AdminPageLayout title={m.admin_booking_title()} loadError={m.admin_bookings_load_failed()}>
      <Link
        to={paths.adminBookings()}
        className="mt-1 inline-block text-sm text-brand-700 underline"
      >
        {m.admin_booking_back()}
      </Link>
      <BookingDetail bookingId={bookingId as Id<"bookings">} />
    </AdminPageLayout>
  );
}

function BookingDetail({ bookingId }: { bookingId: Id<"bookings"> }) {
  const b = useQuery(api.adminBookings.get, { bookingId });
  // paid bookings have a receipt
  const receipt = useQuery(api.receipts.get, { bookingId });
  if (b === undefined) return <LoadingState label={m.admin_bookings_loading()} />;
  if (b === null)
    return (
      <div className="mt-4">
        <EmptyState title={m.admin_booking_missing()} />
      </div>
    );
  const badge = bookingStatusBadge(b.status, "admin");
  const person = (p: { name: string; phone: string | null }, userId: string) => (
    <>
      <Link to={paths.adminUser(userId)} className="text-brand-700 underline" translate="no">
        {p.name || m.admin_unnamed_user()}
      </Link>
      {p.phone && <span className="text-slate-600"> · {formatDigits(p.phone)}</span>}
    </>
  );
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 className="font-semibold break-words text-slate-900">
            {b.services.map((s) => localServiceName(s.name)).join(m.list_separator())}
          </h2>
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{m.card_when()}</dt>
          <dd>{formatDateTime(b.scheduledFor)}</dd>
          <dt className="text-slate-500">{m.card_where()}</dt>
          <dd className="break-words" translate="no">
            {withCity(b.address, localCityName(b.city))}
          </dd>
          <dt className="text-slate-500">{m.card_price()}</dt>
          <dd>{formatNrs(b.price)}</dd>
          <dt className="text-slate-500">{m.label_customer()}</dt>
          <dd className="min-w-0">{person(b.customer, b.customer._id)}</dd>
          <dt className="text-slate-500">{m.label_professional()}</dt>
          <dd className="min-w-0">{person(b.professional, b.professionalUserId)}</dd>
          {b.note && (
            <>
              <dt className="text-slate-500">{m.label_note()}</dt>
              <dd className="break-words" translate="no">
                {b.note}
              </dd>
            </>
          )}
          <dt className="text-slate-500">{m.admin_booking_created()}</dt>
          <dd>{formatDateTime(b._creationTime)}</dd>
          {receipt && (
            <>
              <dt className="text-slate-500">{m.receipt_title()}</dt>
              <dd>
                <Link to={paths.receipt(bookingId)} className="text-brand-700 underline">
                  {receipt.number}
                </Link>
              </dd>
            </>
          )}
        </dl>
        {stepsFor(b.status, "admin").includes("cancel") && <AdminCancel bookingId={bookingId} />}
        {b.review && (
          <div className="mt-4 rounded-lg bg-slate-50 p-3 text-sm">
            <p className="font-medium">
              {m.admin_booking_review({ rating: formatNumber(b.review.rating) })}
            </p>
            {b.review.comment && (
              <p className="mt-1 break-words" translate="no">
                {b.review.comment}
              </p>
            )}
            {b.review.reply && (
              <p className="mt-1 break-words text-slate-600">
                {m.admin_booking_review_reply({ reply: b.review.reply })}
              </p>
            )}
          </div>
        )}
        {b.reports.length > 0 && (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-slate-900">{m.admin_booking_reports()}</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {b.reports.map((r) => (
                <li key={r._id}>
                  <Link to={paths.adminReport(r._id)} className="text-brand-700 underline">
                    {reportCategoryLabel(r.category)}
                  </Link>{" "}
                  · {reportStatusLabel(r.status)} · {formatDateTime(r.at)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <TimeChanges reschedule={b.reschedule} />
        <h2 className="font-semibold text-slate-900">{m.admin_booking_log()}</h2>
        <ol
          className="mt-3 space-y-3 border-l-2 border-slate-200 pl-4"
          aria-label={m.admin_booking_log()}
        >
          {b.events.map((e) => (
            <li key={e._id} className="relative text-sm">
              <span className="absolute top-1.5 -left-[1.4rem] h-2.5 w-2.5 rounded-full bg-brand-600" />
              <p className="font-medium text-slate-900">{eventLabel(e.to)}</p>
              <p className="text-slate-600">
                {eventActor(e.actor)} ·{" "}
                <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at)}</time>
              </p>
              {e.reason && (
                <p className="break-words text-slate-700">
                  {m.admin_booking_event_reason({ reason: e.reason })}
                </p>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

type Moves = NonNullable<ReturnType<typeof useQuery<typeof api.adminBookings.get>>>["reschedule"];

/** The customer's proposals to move the booking, oldest first, each with what became of it. */
function TimeChanges({ reschedule: r }: { reschedule: Moves }) {
  const rows = [
    ...r.history.map((h) => ({ ...h, label: moveOutcome(h.status) })),
    ...(r.pending
      ? [
          {
            ...r.pending,
            reason: null,
            label: m.admin_booking_move_proposed({ when: formatDateTime(r.pending.lapsesAt) }),
          },
        ]
      : []),
  ];
  if (rows.length === 0) return null;
  return (
    <div className="mb-4">
      <h2 className="font-semibold text-slate-900">{m.heading_time_changes()}</h2>
      <ul className="mt-2 space-y-2 text-sm" aria-label={m.heading_time_changes()}>
        {rows.map((row) => (
          <li key={row.at} className="rounded-lg bg-slate-50 p-2">
            <p className="font-medium text-slate-900">
              {m.admin_booking_move({
                from: formatDateTime(row.from),
                to: formatDateTime(row.to),
              })}
            </p>
            <p className="text-slate-600">
              {row.label} ·{" "}
              <time dateTime={new Date(row.at).toISOString()}>{formatDateTime(row.at)}</time>
            </p>
            {row.reason && (
              <p className="break-words text-slate-700">
                {m.admin_booking_event_reason({ reason: row.reason })}
              </p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function moveOutcome(status: Moves["history"][number]["status"]): string {
  switch (status) {
    case "accepted":
      return m.admin_booking_move_accepted();
    case "declined":
      return m.admin_booking_move_declined();
    case "withdrawn":
      return m.admin_booking_move_withdrawn();
    case "lapsed":
    case "proposed":
      return m.admin_booking_move_lapsed();
  }
}

/** An admin cancels a booking not yet completed, with a reason both parties read. */
function AdminCancel({ bookingId }: { bookingId: Id<"bookings"> }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-4 flex justify-end">
      <Button size="sm" variant="danger" onClick={() => setOpen(true)}>
        {m.cancel_confirm()}
      </Button>
      {open && <CancelBookingDialog bookingId={bookingId} onClose={() => setOpen(false)} />}
    </div>
  );
}
