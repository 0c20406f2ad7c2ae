import { useMutation, usePaginatedQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { BookingStatus } from "@convex/validators";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { bookingStatusBadge } from "@/lib/booking-status";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatNrs, withCity } from "@/lib/format";

type Booking = FunctionReturnType<typeof api.bookings.forProfessional>["page"][number];

const PAGE_SIZE = 10;

type Action = "accept" | "reject" | "startTrip" | "arrive" | "complete";

/** After accepting, a professional may still call a job off (until arrival), with a reason the customer sees. */
const CANCELLABLE: BookingStatus[] = ["accepted", "en_route"];

const NEXT_ACTIONS: Partial<Record<BookingStatus, { action: Action; label: string; variant: "primary" | "danger" }[]>> = {
  requested: [
    { action: "accept", label: "Accept", variant: "primary" },
    { action: "reject", label: "Reject", variant: "danger" },
  ],
  accepted: [{ action: "startTrip", label: "Start trip", variant: "primary" }],
  en_route: [{ action: "arrive", label: "Arrived", variant: "primary" }],
  in_progress: [{ action: "complete", label: "Complete", variant: "primary" }],
};

/** The signed-in professional's bookings, newest first, as a live subscription. */
export function useProfessionalBookings() {
  return usePaginatedQuery(api.bookings.forProfessional, {}, { initialNumItems: PAGE_SIZE });
}

/** New requests appear (highlighted) without a reload. */
export function BookingsPanel({ bookings }: { bookings: ReturnType<typeof useProfessionalBookings> }) {
  const { results, status, loadMore } = bookings;
  // Requests that were already there when the list first loaded are not "new".
  const [seenAtLoad, setSeenAtLoad] = useState<ReadonlySet<string> | null>(null);
  if (seenAtLoad === null && status !== "LoadingFirstPage") setSeenAtLoad(new Set(results.map((b) => b._id)));
  const fresh = seenAtLoad === null ? [] : results.filter((b) => b.status === "requested" && !seenAtLoad.has(b._id));

  return (
    <section aria-labelledby="bookings-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id="bookings-heading" className="text-lg font-semibold text-slate-900">
          Bookings
        </h2>
        <p aria-live="polite" className="text-sm font-medium text-sky-700">
          {fresh.length > 0 && `${fresh.length} new ${fresh.length === 1 ? "request" : "requests"}`}
        </p>
      </div>
      {status === "LoadingFirstPage" ? (
        <LoadingState label="Loading bookings…" />
      ) : results.length === 0 ? (
        <div className="mt-3">
          <EmptyState title="No bookings available." >New requests appear here as soon as a customer books you.</EmptyState>
        </div>
      ) : (
        <ul className="mt-3 space-y-3">
          {results.map((b) => (
            <BookingItem key={b._id} booking={b} isNew={fresh.includes(b)} />
          ))}
        </ul>
      )}
      {status === "CanLoadMore" && (
        <Button variant="secondary" size="sm" className="mt-3 w-full" onClick={() => loadMore(PAGE_SIZE)}>
          Show older bookings
        </Button>
      )}
      {status === "LoadingMore" && <LoadingState label="Loading older bookings…" />}
    </section>
  );
}

function BookingItem({ booking: b, isNew }: { booking: Booking; isNew: boolean }) {
  const accept = useMutation(api.bookings.accept);
  const reject = useMutation(api.bookings.reject);
  const startTrip = useMutation(api.bookings.startTrip);
  const arrive = useMutation(api.bookings.arrive);
  const complete = useMutation(api.bookings.complete);
  const [busy, setBusy] = useState<Action | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const mutations: Record<Action, (args: { bookingId: Id<"bookings"> }) => Promise<null>> = {
    accept,
    reject,
    startTrip,
    arrive,
    complete,
  };

  async function run(action: Action) {
    setBusy(action);
    try {
      await mutations[action]({ bookingId: b._id });
    } catch (error) {
      toast.error(errorMessage(error, "Could not update the booking. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  const status = bookingStatusBadge(b.status, "professional");
  const actions = NEXT_ACTIONS[b.status] ?? [];
  const services = b.services.map((s) => s.name).join(", ");
  return (
    <li
      aria-label={`Booking from ${b.customer.name}`}
      className={`rounded-xl border p-3 transition-colors sm:p-4 ${
        isNew ? "border-sky-400 bg-sky-50 ring-2 ring-sky-300" : "border-slate-200 bg-white"
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{b.customer.name}</p>
          <p className="text-sm text-slate-700">{services}</p>
        </div>
        <div className="flex items-center gap-1">
          {isNew && <Badge tone="warning">New</Badge>}
          <Badge tone={status.tone}>{status.label}</Badge>
        </div>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="sr-only">Address</dt>
          <dd className="text-slate-700">{withCity(b.address, b.cityName)}</dd>
        </div>
        <div>
          <dt className="sr-only">Time</dt>
          <dd className="text-slate-700">
            <time dateTime={new Date(b.scheduledFor).toISOString()}>{formatDateTime(b.scheduledFor)}</time>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Price</dt>
          <dd className="font-medium text-slate-900">{formatNrs(b.price)}</dd>
        </div>
        {b.customer.phone && (
          <div>
            <dt className="sr-only">Phone</dt>
            <dd>
              <a href={`tel:${b.customer.phone}`} className="text-brand-700 underline-offset-2 hover:underline">
                {b.customer.phone}
              </a>
            </dd>
          </div>
        )}
      </dl>
      {b.note && <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">“{b.note}”</p>}
      {b.cancelReason && <p className="mt-2 text-sm text-slate-600">Reason: {b.cancelReason}</p>}
      {(actions.length > 0 || CANCELLABLE.includes(b.status)) && (
        <div className="mt-3 flex flex-wrap gap-2">
          {actions.map((a) => (
            <Button
              key={a.action}
              size="sm"
              variant={a.variant}
              disabled={busy !== null}
              onClick={() => void run(a.action)}
              className="min-w-24 flex-1 sm:flex-none"
            >
              {busy === a.action ? "Please wait…" : a.label}
            </Button>
          ))}
          {CANCELLABLE.includes(b.status) && (
            <Button size="sm" variant="secondary" disabled={busy !== null} onClick={() => setCancelling(true)}>
              Cancel job
            </Button>
          )}
        </div>
      )}
      {cancelling && <CancelDialog bookingId={b._id} customer={b.customer.name} onClose={() => setCancelling(false)} />}
    </li>
  );
}

function CancelDialog({ bookingId, customer, onClose }: { bookingId: Id<"bookings">; customer: string; onClose: () => void }) {
  const cancel = useMutation(api.bookings.cancel);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (!reason.trim()) {
      setError("Please tell the customer why.");
      return;
    }
    setBusy(true);
    try {
      await cancel({ bookingId, reason: reason.trim() });
      toast.success("The job was cancelled and the customer was told.");
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, "Could not cancel the job. Please try again."));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} title="Cancel this job?" description={`${customer} will be notified with your reason.`}>
      <form
        noValidate
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        <TextareaField
          label="Reason"
          required
          rows={3}
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Keep the job
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? "Cancelling…" : "Cancel job"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Addresses often already name the city ("Baneshwor-10, Kathmandu"); add it only when they don't. */