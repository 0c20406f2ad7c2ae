import { Link } from "react-router-dom";
import { useMutation, usePaginatedQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { notificationText } from "@/i18n/notifications";
import { paths } from "@/lib/paths";

const PAGE_SIZE = 20;

export function NotificationsTab() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.notifications.list,
    {},
    { initialNumItems: PAGE_SIZE },
  );
  const markRead = useMutation(api.notifications.markRead);

  async function mark(notificationId?: Id<"notifications">) {
    try {
      await markRead(notificationId ? { notificationId } : {});
    } catch (e) {
      toast.error(errorMessage(e, "Could not mark as read."));
    }
  }

  if (status === "LoadingFirstPage") return <LoadingState label="Loading notifications…" />;
  const unread = results.some((n) => !n.read);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Notifications</h1>
        {unread && (
          <Button variant="secondary" size="sm" onClick={() => void mark()}>
            Mark all as read
          </Button>
        )}
      </div>
      {results.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No notifications yet.">
            Updates about your bookings will appear here.
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
          {results
            .map((stored) => ({ ...stored, ...notificationText(stored) }))
            .map((n) => (
              <li key={n._id} className={`flex gap-3 p-4 ${n.read ? "" : "bg-brand-50/60"}`}>
                <span
                  aria-hidden="true"
                  className={`mt-2 h-2 w-2 shrink-0 rounded-full ${n.read ? "bg-transparent" : "bg-brand-600"}`}
                />
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {!n.read && <span className="sr-only">Unread: </span>}
                    {n.title}
                  </p>
                  <p className="text-sm text-slate-700">{n.body}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {formatDateTime(n._creationTime)}
                    {n.bookingId && (
                      <>
                        {" · "}
                        <Link to={paths.customerBookings()} className="text-brand-700 underline">
                          View booking
                        </Link>
                      </>
                    )}
                  </p>
                </div>
                {!n.read && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void mark(n._id)}
                    aria-label={`Mark “${n.title}” as read`}
                  >
                    Mark read
                  </Button>
                )}
              </li>
            ))}
        </ul>
      )}
      {status === "CanLoadMore" && (
        <Button variant="secondary" className="mt-4" onClick={() => loadMore(PAGE_SIZE)}>
          Show older
        </Button>
      )}
      {status === "LoadingMore" && <LoadingState label="Loading more…" />}
    </div>
  );
}
