import { useQuery } from "convex/react";
import { useSearchParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { ErrorBoundary } from "@/components/ui/error-boundary";

const GONE = "This booking is no longer available.";

/** What became of a request a notification announced, by its status now. */
const SAID: Record<BookingStatus, string> = {
  requested: "This request waits for your answer: accept or decline it below.",
  accepted: "You have already accepted this request.",
  en_route: "You have already accepted this job and are on the way.",
  in_progress: "This job is under way.",
  completed: "This job is completed.",
  reviewed: "This job is completed and reviewed.",
  rejected: "You declined this request.",
  cancelled: "The customer cancelled this request.",
  expired: "This request has expired: it was not answered in time.",
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
      <ErrorBoundary key={bookingId} fallback={() => <p>{GONE}</p>}>
        <Notice
          bookingId={bookingId as Id<"bookings">}
          accepting={params.get("intent") === "accept"}
        />
      </ErrorBoundary>
      <button type="button" onClick={close} className="shrink-0 font-medium underline">
        Show all bookings
      </button>
    </div>
  );
}

function Notice({ bookingId, accepting }: { bookingId: Id<"bookings">; accepting: boolean }) {
  const booking = useQuery(api.bookings.get, { bookingId });
  if (booking === undefined) return <p>Looking up this booking…</p>;
  if (booking === null) return <p>{GONE}</p>;
  const what = booking.services.map((s) => s.name).join(", ");
  return (
    <p>
      <span className="font-medium">
        {what} for {booking.customer.name}.
      </span>{" "}
      {booking.status === "requested" && accepting
        ? "Check the details below, then tap Accept."
        : SAID[booking.status]}
    </p>
  );
}
