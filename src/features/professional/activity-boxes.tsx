import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";
import { formatDateTime, formatRelative } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { notificationText } from "@/i18n/notifications";
import { m } from "@/i18n/paraglide/messages";
import { localCategoryName } from "@/i18n/categories";
import type { FunctionReturnType } from "convex/server";

const box = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5";

type Activity = FunctionReturnType<typeof api.bookings.recentActivity>[number];

/** One line of Recent Activity in the reader's language, from its kind and categories. */
function activityText(item: Activity): string {
  const what =
    item.categories.map((c) => localCategoryName(c.slug, c.name)).join(m.list_separator()) ||
    m.activity_a_service();
  switch (item.kind) {
    case "requested":
      return m.activity_requested({ what });
    case "accepted":
      return m.activity_accepted({ what });
    case "rejected":
      return m.activity_rejected({ what });
    case "en_route":
      return m.activity_en_route({ what });
    case "arrived":
      return m.activity_arrived({ what });
    case "no_show":
      return m.activity_no_show({ what });
    case "in_progress":
      return m.activity_in_progress({ what });
    case "completed":
      return m.activity_completed({ what });
    case "cancelled":
      return m.activity_cancelled({ what });
    case "expired":
      return m.activity_expired({ what });
    case "reviewed":
      return m.activity_rated({ stars: formatNumber(item.rating ?? 0) });
  }
}

/** Booking events and reviews, newest first (server: last 10). */
export function RecentActivity({ now }: { now: number }) {
  const items = useQuery(api.bookings.recentActivity);
  return (
    <section aria-labelledby="activity-heading" className={box}>
      <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
        {m.activity_heading()}
      </h2>
      {items === undefined ? (
        <LoadingState label={m.activity_loading()} />
      ) : items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{m.activity_empty()}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {items.map((item) => (
            <li
              key={`${item.at}-${item.text}`}
              className="flex items-baseline justify-between gap-3 py-2 text-sm"
            >
              <span className="text-slate-800">{activityText(item)}</span>
              <time
                dateTime={new Date(item.at).toISOString()}
                title={formatDateTime(item.at)}
                className="shrink-0 text-xs text-slate-500"
              >
                {formatRelative(item.at, now)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const MAX_SHOWN_COUNT = 99;
const LATEST_SHOWN = 5;

/** The real unread count (the spec's box always said "2 new notifications"). */
export function NotificationsBox({ now }: { now: number }) {
  const unread = useQuery(api.notifications.unreadCount);
  const latest = usePaginatedQuery(api.notifications.list, {}, { initialNumItems: LATEST_SHOWN });
  const markRead = useMutation(api.notifications.markRead);
  const { busy, run } = useBusyCall();

  const countText =
    unread === undefined
      ? null
      : unread === 0
        ? m.notes_none_new()
        : unread === 1
          ? m.notes_one_new()
          : m.notes_many_new({
              count:
                unread > MAX_SHOWN_COUNT
                  ? `${formatNumber(MAX_SHOWN_COUNT)}+`
                  : formatNumber(unread),
            });
  return (
    <section aria-labelledby="notifications-heading" className={box}>
      <h2 id="notifications-heading" className="text-lg font-semibold text-slate-900">
        {m.nav_notifications()}
      </h2>
      {countText === null ? (
        <LoadingState label={m.notes_loading()} />
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-800" aria-live="polite">
            {countText}
          </p>
          {!!unread && (
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={() => void run(() => markRead({}), m.notes_mark_all_failed())}
            >
              {m.notes_mark_all()}
            </Button>
          )}
        </div>
      )}
      {latest.results.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100">
          {latest.results.slice(0, LATEST_SHOWN).map((stored) => {
            const n = { ...stored, ...notificationText(stored) };
            return (
              <li key={n._id} className="py-2 text-sm">
                <p
                  className={`flex items-center gap-2 ${n.read ? "text-slate-700" : "font-medium text-slate-900"}`}
                >
                  {!n.read && (
                    <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-sky-500" />
                  )}
                  {n.title}
                  {!n.read && <span className="sr-only">{m.notes_unread_suffix()}</span>}
                </p>
                <p className="text-slate-600">{n.body}</p>
                <p className="text-xs text-slate-500">
                  <time dateTime={new Date(n._creationTime).toISOString()}>
                    {formatRelative(n._creationTime, now)}
                  </time>
                  {n.bookingId && (
                    <>
                      {" · "}
                      <Link
                        to={paths.professionalDashboard(undefined, n.bookingId)}
                        className="inline-flex min-h-11 items-center text-brand-700 underline"
                      >
                        {m.notes_view_booking()}
                      </Link>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
