import { Link } from "@/components/link";
import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { COMPLETION } from "@convex/rules/bookingLifecycle";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { formatDateTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";
import { m as t } from "@/i18n/paraglide/messages";

const MINUTE = 60_000;

/** /admin/held-reviews: reviews of implausibly fast jobs, held out of the ratings; publish or remove. */
export default function HeldReviewsPage() {
  return (
    <AdminPageLayout
      title={t.admin_nav_held_reviews()}
      loadError={t.admin_held_load_failed()}
      controls={
        <p className="mt-2 text-sm text-slate-600">
          {t.admin_held_intro({
            minutes: formatNumber(COMPLETION.plausibleJobMs / MINUTE),
          })}
        </p>
      }
    >
      <HeldList />
    </AdminPageLayout>
  );
}

function HeldList() {
  const held = useQuery(api.adminReviews.held);
  const publish = useMutation(api.adminReviews.publish);
  const remove = useMutation(api.adminReviews.remove);
  const { busy, run } = useBusyCall();
  if (held === undefined) return <LoadingState label={t.admin_held_loading()} />;
  if (held.length === 0) return <EmptyState title={t.admin_held_none()} />;

  async function decide(reviewId: Id<"reviews">, publishIt: boolean) {
    const done = await run(
      () => (publishIt ? publish : remove)({ reviewId }),
      t.admin_held_failed(),
    );
    if (done) toast.success(publishIt ? t.admin_held_published() : t.admin_held_removed());
  }

  return (
    <ul className="mt-4 space-y-3">
      {held.map((r) => (
        <li
          key={r._id}
          aria-label={t.admin_held_label({
            customer: r.customerName,
            professional: r.professionalName,
          })}
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <p className="font-semibold text-slate-900">
            {t.admin_held_label({ customer: r.customerName, professional: r.professionalName })}
          </p>
          <p className="text-sm text-slate-700">
            {t.admin_held_stars({ rating: formatNumber(r.rating) })}
            {r.jobMs !== null &&
              ` · ${t.admin_held_took({ minutes: formatNumber(Math.floor(r.jobMs / MINUTE)) })}`}
            {" · "}
            <time dateTime={new Date(r.at).toISOString()}>{formatDateTime(r.at)}</time>
          </p>
          {r.comment && <p className="mt-2 text-sm break-words text-slate-800">{r.comment}</p>}
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <Button disabled={busy} onClick={() => decide(r._id, true)}>
              {t.admin_held_publish()}
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => decide(r._id, false)}>
              {t.admin_held_remove()}
            </Button>
            <Link to={paths.adminBooking(r.bookingId)} className="text-sm text-brand-700 underline">
              {t.admin_held_booking()}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
