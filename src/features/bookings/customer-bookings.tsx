import { lazy, Suspense, useState } from "react";
import { Link } from "react-router-dom";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { Button } from "@/components/ui/button";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { TextareaField } from "@/components/ui/inputs";
import { StarInput } from "@/components/ui/star-rating";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { formatKathmanduTime } from "@/lib/format";
import { paths } from "@/lib/paths";
import { BookingCard } from "@/features/bookings/booking-card";
import { StepButtons } from "@/features/bookings/step-buttons";

// Leaflet is fetched only when a booking is actually en route.
const MarkersMap = lazy(() =>
  import("@/components/map/markers-map").then((m) => ({ default: m.MarkersMap })),
);

const PAGE_SIZE = 10;

/** My Bookings: the signed-in customer's bookings, newest first, live. */
export function CustomerBookings() {
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
            <BookingCard
              key={b._id}
              booking={b}
              audience="customer"
              label={`Booking with ${b.professional.name}`}
              counterpart={{
                name: b.professional.name,
                photoUrl: b.professional.photoUrl,
                detail: b.professional.specialtyName,
                phone: b.professional.phone,
              }}
            >
              {b.status === "en_route" && (
                <ErrorBoundary
                  fallback={() => <ErrorState title="The live position could not be loaded." />}
                >
                  <EnRouteMap bookingId={b._id} name={b.professional.name} />
                </ErrorBoundary>
              )}
              {b.canReview && <ReviewForm bookingId={b._id} name={b.professional.name} />}
              <StepButtons
                bookingId={b._id}
                status={b.status}
                actor="customer"
                scheduledFor={b.scheduledFor}
                otherParty={b.professional.name}
              />
            </BookingCard>
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
        maxLength={BOOKING_FIELDS.reviewComment.max}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? "Sending…" : "Submit review"}
      </Button>
    </form>
  );
}
