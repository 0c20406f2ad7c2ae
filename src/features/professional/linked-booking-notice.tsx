import { useQuery } from "convex/react";
import { useSearchParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { m } from "@/i18n/paraglide/messages";
import { localServiceName } from "@/i18n/services";

/** What became of a request a notification announced, by its status now. */
const SAID: Record<BookingStatus, () => string> = {
  requested: m.linked_requested,
  accepted: m.linked_accepted,
  en_route: m.linked_en_route,
  arrived: m.linked_arrived,
  no_show: m.linked_no_show,
  in_progress: m.linked_in_progress,
  completed: m.linked_completed,
  reviewed: m.linked_reviewed,
  rejected: m.linked_rejected,
  cancelled: m.linked_cancelled,
  expired: m.linked_expired,
};

/**
 * Opened from a notification (`?booking=<id>`, with `intent=accept` from its Accept action): says
 * whether the request can still be answered. The booking's card below is highlighted.
 */
export function LinkedBookingNotice() {
  const [params, setParams] = useSearchParams();
  const bookingId = params.get("booking");
  if (bookingId === null) return null;
  const close = () =>
    setParams(
      (p) => {
        p.delete("booking");
        p.delete("intent");
        return p;
      },
      { replace: true },
    );
  return (
    <div
      role="status"
      className="mb-4 flex items-start justify-between gap-3 rounded-2xl bg-sky-50 p-4 text-sm text-sky-900 ring-1 ring-sky-200"
    >
      {/* an id that is no booking id makes the query throw: the same answer as a missing booking */}
      <ErrorBoundary key={bookingId} fallback={() => <p>{m.linked_gone()}</p>}>
        <Notice
          bookingId={bookingId as Id<"bookings">}
          accepting={params.get("intent") === "accept"}
        />
      </ErrorBoundary>
      <button type="button" onClick={close} className="shrink-0 font-medium underline">
        {m.linked_show_all()}
      </button>
    </div>
  );
}

function Notice({ bookingId, accepting }: { bookingId: Id<"bookings">; accepting: boolean }) {
  const booking = useQuery(api.bookings.get, { bookingId });
  if (booking === undefined) return <p>{m.linked_loading()}</p>;
  if (booking === null) return <p>{m.linked_gone()}</p>;
  const what = booking.services.map((s) => localServiceName(s.name)).join(m.list_separator());
  return (
    <p>
      <span className="font-medium">
        {m.linked_what_for({ what, name: booking.customer.name })}
      </span>{" "}
      {booking.status === "requested" && accepting
        ? m.linked_check_accept()
        : SAID[booking.status]()}
    </p>
  );
}
