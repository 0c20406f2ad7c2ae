import { lazy, Suspense, useState } from "react";
import { Link } from "react-router-dom";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { BookingStatus } from "@convex/validators";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { TextareaField } from "@/components/ui/inputs";
import { StarInput } from "@/components/ui/star-rating";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { bookingStatusBadge } from "@/lib/booking-status";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatKathmanduTime, formatNrs, withCity } from "@/lib/format";
import { paths } from "@/lib/paths";

// Leaflet is fetched only when a booking is actually en route.
const MarkersMap = lazy(() =>
  import("@/components/map/markers-map").then((m) => ({ default: m.MarkersMap })),
);

const PAGE_SIZE = 10;

/** The customer may cancel until the professional is on the way. */
const CUSTOMER_CANCELLABLE: readonly BookingStatus[] = ["requested", "accepted"];

type Booking = {
  _id: Id<"bookings">;
  status: BookingStatus;
  services: { name: string; price: number }[];
  address: string;
  cityName: string;
  scheduledFor: number;
  note: string | null;
  price: number;
  cancelReason: string | null;
  professional: {
    name: string;
    photoUrl: string | null;
    specialtyName: string | null;
    phone: string | null;
  };
  canReview: boolean;
};

export function BookingsTab() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.bookings.forCustomer,
    {},
    { initialNumItems: PAGE_SIZE },
  );
  if (status === "LoadingFirstPage") return <LoadingState label="Loading your bookings…" />;
  return (
    <div>
      <h1 className="text-2xl font-bold">My Bookings</h1>
      {results.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="You have no bookings yet.">
            <Link to={paths.services()} className="text-brand-700 underline">
              Find a professional
            </Link>
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-4 space-y-3">
          {results.map((b) => (
            <li key={b._id}>
              <BookingCard booking={b} />
            </li>
          ))}
        </ul>
      )}
      {status === "CanLoadMore" && (
        <Button variant="secondary" className="mt-4" onClick={() => loadMore(PAGE_SIZE)}>
          Show older bookings
        </Button>
      )}
      {status === "LoadingMore" && <LoadingState label="Loading more…" />}
    </div>
  );
}

function BookingCard({ booking: b }: { booking: Booking }) {
  const [cancelling, setCancelling] = useState(false);
  const badge = bookingStatusBadge(b.status, "customer");
  return (
    <article
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={`Booking with ${b.professional.name}`}
    >
      <div className="flex items-start gap-3">
        <Avatar src={b.professional.photoUrl} name={b.professional.name} size={48} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold">{b.services.map((s) => s.name).join(", ")}</h2>
            <Badge tone={badge.tone}>
              <span className="sr-only">Status: </span>
              {badge.label}
            </Badge>
          </div>
          <p className="text-sm text-slate-600">
            {b.professional.name}
            {b.professional.specialtyName && ` · ${b.professional.specialtyName}`}
            {b.professional.phone && (
              <>
                {" · "}
                <a href={`tel:${b.professional.phone}`} className="text-brand-700 underline">
                  {b.professional.phone}
                </a>
              </>
            )}
          </p>
        </div>
      </div>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-500">When</dt>
        <dd>{formatDateTime(b.scheduledFor)}</dd>
        <dt className="text-slate-500">Where</dt>
        <dd>
          {withCity(b.address, b.cityName)}
        </dd>
        <dt className="text-slate-500">Price</dt>
        <dd className="font-medium">{formatNrs(b.price)}</dd>
        {b.note && (
          <>
            <dt className="text-slate-500">Note</dt>
            <dd>{b.note}</dd>
          </>
        )}
        {b.cancelReason && (
          <>
            <dt className="text-slate-500">Reason</dt>
            <dd>{b.cancelReason}</dd>
          </>
        )}
      </dl>
      {b.status === "en_route" && (
        <ErrorBoundary
          fallback={() => <ErrorState title="The live position could not be loaded." />}
        >
          <EnRouteMap bookingId={b._id} name={b.professional.name} />
        </ErrorBoundary>
      )}
      {b.canReview && <ReviewForm bookingId={b._id} name={b.professional.name} />}
      {CUSTOMER_CANCELLABLE.includes(b.status) && (
        <div className="mt-3 flex justify-end">
          <Button variant="secondary" size="sm" onClick={() => setCancelling(true)}>
            Cancel booking
          </Button>
        </div>
      )}
      {cancelling && <CancelDialog bookingId={b._id} onClose={() => setCancelling(false)} />}
    </article>
  );
}

function EnRouteMap({ bookingId, name }: { bookingId: Id<"bookings">; name: string }) {
  const position = useQuery(api.locations.forBooking, { bookingId });
  return (
    <div className="mt-3">
      <p className="mb-2 text-sm font-medium text-brand-800">{name} is on the way.</p>
      {position === undefined ? (
        <LoadingState label="Loading live position…" />
      ) : position === null ? (
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">
          Waiting for {name}'s position…
        </p>
      ) : (
        <Suspense fallback={<LoadingState label="Loading map…" />}>
          <MovingMarker position={position} name={name} />
        </Suspense>
      )}
    </div>
  );
}

const RECENTRE_DEG = 0.003;

/** The map stays where it first opened so the professional's marker is seen moving across it. */
function MovingMarker({
  position,
  name,
}: {
  position: { lat: number; lng: number; updatedAt: number };
  name: string;
}) {
  const [center, setCenter] = useState<[number, number]>(() => [position.lat, position.lng]);
  // Re-centre only once the marker nears the edge (~300 m away at zoom 16).
  if (
    Math.abs(position.lat - center[0]) > RECENTRE_DEG ||
    Math.abs(position.lng - center[1]) > RECENTRE_DEG
  ) {
    setCenter([position.lat, position.lng]);
  }
  return (
    <>
      <MarkersMap
        center={center}
        zoom={16}
        heightPx={280}
        markers={[{ id: "pro", lat: position.lat, lng: position.lng, label: `${name} (live)` }]}
        ariaLabel={`Live position of ${name}`}
      />
      <p className="mt-1 text-xs text-slate-500">
        Updated {formatKathmanduTime(position.updatedAt)}
      </p>
    </>
  );
}

function CancelDialog({ bookingId, onClose }: { bookingId: Id<"bookings">; onClose: () => void }) {
  const cancel = useMutation(api.bookings.cancel);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (reason.trim().length < 3) {
      setError("Please tell the professional why (at least 3 characters).");
      return;
    }
    setBusy(true);
    try {
      await cancel({ bookingId, reason: reason.trim() });
      toast.success("Booking cancelled.");
      onClose();
    } catch (e) {
      toast.error(errorMessage(e, "The booking could not be cancelled."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Cancel this booking?"
      description="The professional will be told your reason."
    >
      <div className="mt-4">
        <TextareaField
          label="Reason"
          rows={3}
          value={reason}
          maxLength={300}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
          error={error}
        />
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Keep booking
        </Button>
        <Button variant="danger" onClick={submit} disabled={busy}>
          {busy ? "Cancelling…" : "Cancel booking"}
        </Button>
      </div>
    </Dialog>
  );
}

function ReviewForm({ bookingId, name }: { bookingId: Id<"bookings">; name: string }) {
  const createReview = useMutation(api.reviews.create);
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (rating < 1) {
      setError("Choose 1 to 5 stars.");
      return;
    }
    setBusy(true);
    try {
      await createReview({
        bookingId,
        rating,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      toast.success("Thank you for your review!");
    } catch (e) {
      toast.error(errorMessage(e, "Your review could not be saved."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="mt-3 space-y-3 rounded-xl bg-brand-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <StarInput
        label={`Rate ${name}`}
        value={rating}
        onChange={(v) => {
          setRating(v);
          setError(undefined);
        }}
      />
      {error && <p className="text-sm text-red-600">{error}</p>}
      <TextareaField
        label="Comment (optional)"
        rows={2}
        maxLength={1000}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? "Sending…" : "Submit review"}
      </Button>
    </form>
  );
}
