import { Link } from "@/components/link";
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
import { m } from "@/i18n/paraglide/messages";

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
      toast.error(errorMessage(e, m.notes_mark_failed()));
    }
  }

  if (status === "LoadingFirstPage") return <LoadingState label={m.notes_loading()} />;
  const unread = results.some((n) => !n.read);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{m.nav_notifications()}</h1>
        {unread && (
          <Button variant="secondary" size="sm" onClick={() => void mark()}>
            {m.notes_mark_all()}
          </Button>
        )}
      </div>
      {results.length === 0 ? (
        <div className="mt-4">
          <EmptyState title={m.notes_empty()}>{m.notes_empty_hint()}</EmptyState>
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
                    {!n.read && <span className="sr-only">{m.notes_unread_prefix()} </span>}
                    {n.title}
                  </p>
                  <p className="text-sm text-slate-700">{n.body}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {formatDateTime(n._creationTime)}
                    {n.bookingId && (
                      <>
                        {" · "}
                        <Link
                          to={paths.customerBooking(n.bookingId)}
                          className="inline-flex min-h-11 items-center text-brand-700 underline"
                        >
                          {m.notes_view_booking()}
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
                    aria-label={m.notes_mark_one_label({ title: n.title })}
                  >
                    {m.notes_mark_one()}
                  </Button>
                )}
              </li>
            ))}
        </ul>
      )}
      {status === "CanLoadMore" && (
        <Button variant="secondary" className="mt-4" onClick={() => loadMore(PAGE_SIZE)}>
          {m.notes_older()}
        </Button>
      )}
      {status === "LoadingMore" && <LoadingState label={m.state_loading_more()} />}
    </div>
  );
}
