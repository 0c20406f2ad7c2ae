import { useEffect, useRef, useState } from "react";
import { usePaginatedQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { LoadMore } from "@/components/ui/load-more";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { ChatLink, useChatUnread } from "@/features/bookings/chat/chat-link";
import { ReportAction } from "@/features/bookings/report-action";
import { NowOffers } from "@/features/bookings/now-offers";
import { useRememberJobs } from "@/features/bookings/last-known-jobs";
import { workQueue } from "@/features/bookings/work-queue";
import { BookingCard } from "@/features/bookings/booking-card";
import { StepButtons } from "@/features/bookings/step-buttons";
import { awaitsConfirmation } from "@convex/rules/bookingLifecycle";
import { AwaitingConfirmation } from "@/features/bookings/job-confirmation";
import { StartCodeForm } from "@/features/bookings/start-code";
import { ProfessionalReschedule } from "@/features/bookings/reschedule";
import { BillPanel } from "@/features/bookings/bill/bill-panel";
import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";
import { useLinkedBookingId } from "@/lib/linked-booking";

const PAGE_SIZE = 10;

/** The signed-in professional's bookings, newest first, as a live subscription. */
export function useProfessionalBookings() {
  return usePaginatedQuery(api.bookings.forProfessional, {}, { initialNumItems: PAGE_SIZE });
}

/** Where the dashboard scrolls the bookings panel to: its requests or its jobs. */
export type BookingsView = "requests" | "jobs";

const viewOf = (b: { status: string }): BookingsView =>
  b.status === "requested" ? "requests" : "jobs";

/**
 * The professional's work queue: requests waiting for an answer, then jobs, each under its own
 * heading; requests that arrive while it is open are highlighted. `view` "jobs" scrolls to the jobs.
 */
export function ProfessionalBookings({
  bookings,
  view,
}: {
  bookings: ReturnType<typeof useProfessionalBookings>;
  view?: BookingsView;
}) {
  const { results, status, loadMore } = bookings;
  // Requests that were already there when the list first loaded are not "new".
  const [seenAtLoad, setSeenAtLoad] = useState<ReadonlySet<string> | null>(null);
  if (seenAtLoad === null && status !== "LoadingFirstPage")
    setSeenAtLoad(new Set(results.map((b) => b._id)));
  const fresh =
    seenAtLoad === null
      ? []
      : results.filter((b) => b.status === "requested" && !seenAtLoad.has(b._id));
  const queue = workQueue(results);
  const requests = queue.filter(({ booking }) => viewOf(booking) === "requests");
  const jobs = queue.filter(({ booking }) => viewOf(booking) === "jobs");
  const loaded = status !== "LoadingFirstPage";
  const linked = useLinkedBookingId();
  const jobsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (view === "jobs" && loaded && linked === null) jobsHeading.current?.scrollIntoView();
  }, [view, loaded, linked]);

  const card = ({ booking: b, clashAt }: (typeof queue)[number]) => (
    <BookingCard
      key={b._id}
      booking={b}
      audience="professional"
      label={m.pro_card_label({ name: b.customer.name })}
      counterpart={b.customer}
      highlighted={fresh.includes(b)}
    >
      <ProfessionalReschedule booking={b} name={b.customer.name} />
      <BillPanel bookingId={b._id} status={b.status} audience="professional" />
      {b.start && <StartCodeForm bookingId={b._id} start={b.start} />}
      {b.status === "no_show" && (
        <p role="status" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-900">
          {m.no_show_closed_pro()}
        </p>
      )}
      <StepButtons
        bookingId={b._id}
        status={b.status}
        actor="professional"
        otherParty={b.customer.name}
        scheduledFor={b.scheduledFor}
        clashAt={clashAt}
      />
      <ChatLink bookingId={b._id} />
      {awaitsConfirmation(b) && <AwaitingConfirmation />}
      <ReportAction bookingId={b._id} hasReview={b.status === "reviewed"} />
    </BookingCard>
  );

  return (
    <section
      aria-labelledby="bookings-heading"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="bookings-heading" className="text-lg font-semibold text-slate-900">
          {m.label_bookings()}
        </h2>
        <p aria-live="polite" className="text-sm font-medium text-sky-700">
          {fresh.length > 0 &&
            (fresh.length === 1
              ? m.pro_new_one()
              : m.pro_new_many({ count: formatNumber(fresh.length) }))}
        </p>
      </div>
      {!loaded ? (
        <LoadingState label={m.pro_loading()} />
      ) : (
        <>
          <h3 id="requests-heading" className={subHeading}>
            {m.pro_requests_heading({ count: formatNumber(requests.length) })}
          </h3>
          {results.length === 0 ? (
            <div className="mt-2">
              <EmptyState title={m.pro_empty()}>{m.pro_empty_hint()}</EmptyState>
            </div>
          ) : requests.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{m.pro_no_requests()}</p>
          ) : (
            <ul className="mt-2 space-y-3">{requests.map(card)}</ul>
          )}
          <h3 id="jobs-heading" ref={jobsHeading} className={subHeading}>
            {m.label_jobs()}
          </h3>
          {jobs.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{m.pro_no_jobs()}</p>
          ) : (
            <ul className="mt-2 space-y-3">{jobs.map(card)}</ul>
          )}
        </>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(PAGE_SIZE)}
        label={m.mine_more()}
        loadingLabel={m.pro_loading_older()}
      />
    </section>
  );
}

// below the sticky header when scrolled to
const subHeading = "mt-4 scroll-mt-36 text-base font-semibold text-slate-800";

/** What the dashboard's section tabs say about the bookings: a job on the way, requests waiting. */
export type BookingsSummary = {
  enRoute: boolean;
  requests: number;
  /** Chat messages waiting unread on the bookings each section shows. */
  unreadIn: Record<BookingsView, number>;
  /** The section holding the booking a link opened (`?booking=`), once it is loaded. */
  linkedIn: BookingsView | null;
};

/** The dashboard's panel: loads the bookings and tells the dashboard what its tabs show. */
export function DashboardBookings({
  view,
  onSummary,
}: {
  view: BookingsView;
  onSummary: (summary: BookingsSummary) => void;
}) {
  const bookings = useProfessionalBookings();
  useRememberJobs(bookings.results, bookings.status !== "LoadingFirstPage");
  const linkedId = useLinkedBookingId();
  const enRoute = bookings.results.some((b) => b.status === "en_route");
  const requests = bookings.results.filter((b) => b.status === "requested").length;
  const linked = bookings.results.find((b) => b._id === linkedId);
  const linkedIn = linked ? viewOf(linked) : null;
  const unread = useChatUnread();
  const unreadIn = { requests: 0, jobs: 0 };
  for (const b of bookings.results) unreadIn[viewOf(b)] += unread.get(b._id) ?? 0;
  const { requests: unreadRequests, jobs: unreadJobs } = unreadIn;
  useEffect(
    () =>
      onSummary({
        enRoute,
        requests,
        linkedIn,
        unreadIn: { requests: unreadRequests, jobs: unreadJobs },
      }),
    [enRoute, requests, linkedIn, unreadRequests, unreadJobs, onSummary],
  );
  return (
    <>
      <NowOffers />
      <ProfessionalBookings bookings={bookings} view={view} />
    </>
  );
}
