import { Suspense, useEffect, useRef, useState } from "react";
import { LazyMarkersMap } from "@/components/map/lazy-markers-map";
import { Link } from "@/components/link";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { lateCancelFee } from "@convex/rules/cancellation";
import { rupeesToPaisa } from "@convex/rules/money";
import { eta } from "@convex/rules/eta";
import type { Pin } from "@convex/rules/pin";
import { Button, buttonClasses } from "@/components/ui/button";
import { LoadMore } from "@/components/ui/load-more";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { TextareaField } from "@/components/ui/inputs";
import { StarInput } from "@/components/ui/star-input";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatKathmanduTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { useLinkedBookingId } from "@/lib/linked-booking";
import { useBusyCall } from "@/lib/use-busy-call";
import { ChatLink } from "@/features/bookings/chat/chat-link";
import { ReportAction } from "@/features/bookings/report-action";
import { BookingCard } from "@/features/bookings/booking-card";
import { StepButtons } from "@/features/bookings/step-buttons";
import { ConfirmJobDone } from "@/features/bookings/job-confirmation";
import { StartCodePanel } from "@/features/bookings/start-code";
import { NoShowAction, RedispatchNow } from "@/features/bookings/no-show";
import { CustomerReschedule } from "@/features/bookings/reschedule";
import { awaitsConfirmation } from "@convex/rules/bookingLifecycle";
import { BillPanel } from "@/features/bookings/bill/bill-panel";
import { m } from "@/i18n/paraglide/messages";
import { localCategoryName, localLandingService } from "@/i18n/categories";
import { localCityName } from "@/i18n/places";

const PAGE_SIZE = 10;
/** How many more pages a link to an older booking (`?booking=`) loads to reach it. */
const LINK_PAGES = 5;

/** My Bookings: the signed-in customer's bookings, newest first, live. */
export function CustomerBookings() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.bookings.forCustomer,
    {},
    { initialNumItems: PAGE_SIZE },
  );
  const settings = useQuery(api.settings.get);
  const linkedId = useLinkedBookingId();
  const linkedShown = results.some((b) => b._id === linkedId);
  const pagesForLink = useRef(0);
  useEffect(() => {
    if (linkedId === null || linkedShown || status !== "CanLoadMore") return;
    if (pagesForLink.current++ < LINK_PAGES) loadMore(PAGE_SIZE);
  }, [linkedId, linkedShown, status, loadMore]);
  if (status === "LoadingFirstPage") return <LoadingState label={m.mine_loading()} />;
  return (
    <div>
      <h1 className="text-2xl font-bold">{m.nav_my_bookings()}</h1>
      {results.length === 0 ? (
        <div className="mt-4">
          <EmptyState title={m.mine_empty()}>
            <Link to={paths.services()} className="text-brand-700 underline">
              {m.mine_find()}
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
              label={m.mine_card_label({ name: b.professional.name })}
              counterpart={{
                name: b.professional.name,
                photoUrl: b.professional.photoUrl,
                detail:
                  b.professional.specialtyName && localLandingService(b.professional.specialtyName),
                phone: b.professional.phone,
              }}
            >
              {b.status === "en_route" && (
                <ErrorBoundary fallback={() => <ErrorState title={m.mine_live_failed()} />}>
                  <EnRouteMap bookingId={b._id} name={b.professional.name} pin={b.pin} />
                </ErrorBoundary>
              )}
              {(b.status === "accepted" || b.status === "en_route") && (
                <NoShowAction
                  bookingId={b._id}
                  scheduledFor={b.scheduledFor}
                  name={b.professional.name}
                />
              )}
              <CustomerReschedule booking={b} name={b.professional.name} />
              {b.status === "no_show" && (
                <p role="status" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-900">
                  {m.no_show_closed({ name: b.professional.name })}
                </p>
              )}
              {b.status === "no_show" && b.pin && <RedispatchNow booking={b} />}
              {b.start && (
                <StartCodePanel bookingId={b._id} start={b.start} name={b.professional.name} />
              )}
              {awaitsConfirmation(b) && (
                <ConfirmJobDone bookingId={b._id} name={b.professional.name} />
              )}
              <BillPanel bookingId={b._id} status={b.status} audience="customer" />
              {b.canReview && <ReviewForm bookingId={b._id} name={b.professional.name} />}
              {(b.status === "rejected" ||
                b.status === "no_show" ||
                (b.status === "cancelled" && b.cancelledBy !== "customer")) && (
                <FindNext booking={b} />
              )}
              <StepButtons
                bookingId={b._id}
                status={b.status}
                actor="customer"
                scheduledFor={b.scheduledFor}
                otherParty={b.professional.name}
                feePaisa={
                  settings
                    ? lateCancelFee(b.status, rupeesToPaisa(b.price), settings.lateCancelFeeNrs)
                    : 0
                }
              />
              <ChatLink bookingId={b._id} />
              <ReportAction bookingId={b._id} hasReview={b.status === "reviewed"} />
            </BookingCard>
          ))}
        </ul>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(PAGE_SIZE)}
        label={m.mine_more()}
        loadingLabel={m.state_loading_more()}
      />
    </div>
  );
}

/** After a decline: the same service's other professionals in the same city, one tap away. */
function FindNext({
  booking,
}: {
  booking: {
    city: string;
    cityName: string;
    services: { name: string; category: string; categoryName: string }[];
    professional: { _id: string };
  };
}) {
  const service = booking.services[0];
  if (!service) return null;
  return (
    <Link
      to={paths.serviceSearch(
        service.categoryName,
        booking.cityName,
        service.name,
        booking.professional._id,
      )}
      className={buttonClasses("primary", "md", "mt-3 w-full sm:w-auto")}
    >
      {m.mine_find_next({
        service: localCategoryName(service.category, service.categoryName),
        city: localCityName(booking.city),
      })}
    </Link>
  );
}

function EnRouteMap({
  bookingId,
  name,
  pin,
}: {
  bookingId: Id<"bookings">;
  name: string;
  /** The job's map pin, when the booking has one: the way there is measured to it. */
  pin: Pin | null;
}) {
  const position = useQuery(api.locations.forBooking, { bookingId });
  return (
    <div className="mt-3">
      <p className="mb-2 text-sm font-medium text-brand-800">{m.live_on_way({ name })}</p>
      {position === undefined ? (
        <LoadingState label={m.live_loading()} />
      ) : position === null ? (
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">
          {m.live_waiting({ name })}
        </p>
      ) : (
        <Suspense fallback={<LoadingState label={m.state_loading_map()} />}>
          <MovingMarker position={position} name={name} pin={pin} />
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
  pin,
}: {
  position: { lat: number; lng: number; updatedAt: number };
  name: string;
  pin: Pin | null;
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
      <LazyMarkersMap
        center={center}
        zoom={16}
        heightPx={280}
        markers={[
          { id: "pro", lat: position.lat, lng: position.lng, label: m.live_marker({ name }) },
          ...(pin ? [{ id: "job", lat: pin.lat, lng: pin.lng, label: m.live_job_marker() }] : []),
        ]}
        ariaLabel={m.live_map_label({ name })}
      />
      {pin && <Arrival from={position} to={pin} />}
      <p className="mt-1 text-xs text-slate-500">
        {m.live_updated({ time: formatKathmanduTime(position.updatedAt) })}
      </p>
    </>
  );
}

/** Distance by road and estimated arrival (rules/eta.ts), from the position's time. */
function Arrival({ from, to }: { from: Pin & { updatedAt: number }; to: Pin }) {
  const { roadMetres, minutes } = eta(from, to);
  return (
    <p role="status" className="mt-2 text-sm font-medium text-slate-800">
      {m.live_eta({
        distance: formatNumber(Math.round(roadMetres / 100) / 10),
        minutes: formatNumber(minutes),
        time: formatKathmanduTime(from.updatedAt + minutes * 60_000),
      })}
    </p>
  );
}

function ReviewForm({ bookingId, name }: { bookingId: Id<"bookings">; name: string }) {
  const createReview = useMutation(api.reviews.create);
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyCall();

  async function submit() {
    if (rating < 1) {
      setError(m.review_choose_stars());
      return;
    }
    await run(async () => {
      const { held } = await createReview({
        bookingId,
        rating,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      toast.success(held ? m.review_held() : m.review_thanks());
    }, m.review_failed());
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
        label={m.review_rate({ name })}
        value={rating}
        onChange={(v) => {
          setRating(v);
          setError(undefined);
        }}
      />
      {error && <p className="text-sm text-red-600">{error}</p>}
      <TextareaField
        label={m.review_comment()}
        rows={2}
        maxLength={BOOKING_FIELDS.reviewComment.max}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? m.state_sending() : m.review_submit()}
      </Button>
    </form>
  );
}
