import { useState, type ComponentType } from "react";
import { useParams } from "react-router-dom";
import { Link } from "@/components/link";
import { useConvexAuth, useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { SPECIALTIES } from "@convex/constants";
import { clock } from "@convex/rules/schedule";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TextareaField } from "@/components/ui/inputs";
import { LoadMore } from "@/components/ui/load-more";
import { StarRating } from "@/components/ui/star-rating";
import { EmptyState, LoadingState } from "@/components/ui/states";
import type { BookActionProps } from "@/lib/booking-intent";
import { formatDay, formatWeekdays } from "@/lib/format";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { formatNrs } from "@/lib/rupees";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { localServiceName } from "@/i18n/services";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";

const REVIEWS_PAGE = 5;

/** "about 12 minutes": the median time from request to acceptance. */
function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60)
    return minutes === 1
      ? m.pp_about_minute()
      : m.pp_about_minutes({ count: formatNumber(minutes) });
  const hours = Math.round(minutes / 60);
  return hours === 1 ? m.pp_about_hour() : m.pp_about_hours({ count: formatNumber(hours) });
}

/** "4.8 (23)" in the reader's digits. */
const average = (value: number) => formatNumber(Math.round(value * 10) / 10);

/**
 * /professionals/:id — a professional's public profile: who, where they work, verification, rating
 * with its distribution, reviews with comments and replies, jobs done, response time, services with
 * prices. No home address or phone (model/professionals.ts profileFor decides who sees those).
 */
export function ProfilePage({ BookAction }: { BookAction: ComponentType<BookActionProps> }) {
  const { id = "" } = useParams();
  const profile = useQuery(api.professionals.get, { professionalId: id as Id<"professionals"> });
  if (profile === undefined) return <LoadingState label={m.pp_loading()} />;
  if (profile === null)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <EmptyState title={m.pp_not_found()}>
          <Link to={paths.services()} className="text-brand-700 underline">
            {m.pp_find_another()}
          </Link>
        </EmptyState>
      </main>
    );
  const { reviews } = profile;
  const maxCount = Math.max(1, ...reviews.distribution.map((d) => d.count));
  return (
    <main className="mx-auto max-w-4xl px-4 py-6 sm:py-10">
      <section className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-start sm:p-6">
        <Avatar src={profile.photoUrl} name={profile.name} size={96} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold">{profile.name}</h1>
            {profile.verified ? (
              <Badge tone="success">
                ✓ {m.badge_verified()}
                {profile.verifiedAt !== null && ` ${formatDay(profile.verifiedAt)}`}
              </Badge>
            ) : (
              <Badge>{m.badge_unverified()}</Badge>
            )}
          </div>
          <p className="text-slate-700">
            {localCategoryName(profile.specialty, profile.specialtyName)} ·{" "}
            {localCityName(profile.city)}
          </p>
          <p className="text-sm text-slate-600">
            {m.pp_works_in({
              cities: [...new Set(profile.serviceArea.map((a) => localCityName(a.city)))].join(
                m.list_separator(),
              ),
            })}
            {profile.workingHours &&
              ` · ${[
                formatWeekdays(profile.workingHours.days),
                formatDigits(
                  `${clock(profile.workingHours.start)}–${clock(profile.workingHours.end)}`,
                ),
              ].join(m.list_separator())}`}
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-500">{m.pp_completed_jobs()}</dt>
              <dd className="font-semibold">{formatNumber(profile.completedJobs)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{m.pp_member_since()}</dt>
              <dd className="font-semibold">{formatDay(profile.memberSince)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{m.pp_responds_in()}</dt>
              <dd className="font-semibold">
                {profile.medianAcceptMs === null ? "—" : duration(profile.medianAcceptMs)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">{m.pp_rating()}</dt>
              <dd className="font-semibold">
                {reviews.count
                  ? m.rating_short({
                      average: average(reviews.average),
                      count: formatNumber(reviews.count),
                    })
                  : m.pp_none_yet()}
              </dd>
            </div>
          </dl>
        </div>
        <div className="sm:self-center">
          <BookAction
            professional={profile}
            category={SPECIALTIES.find((x) => x.slug === profile.specialty)?.category ?? ""}
          />
        </div>
      </section>

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)]">
        <section aria-labelledby="services-heading" className="min-w-0">
          <h2 id="services-heading" className="text-lg font-semibold">
            {m.pp_services_in({ city: localCityName(profile.city) })}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {profile.services.map((s) => (
              <li key={s.name} className="flex justify-between gap-3 px-3 py-2 text-sm">
                <span>{localServiceName(s.name)}</span>
                <span className="font-medium whitespace-nowrap">{formatNrs(s.price)}</span>
              </li>
            ))}
          </ul>
          <h2 className="mt-6 text-lg font-semibold">{m.pp_rating()}</h2>
          <div className="mt-2 flex items-center gap-2">
            <StarRating value={reviews.average} />
            <span className="text-sm text-slate-700">
              {reviews.count
                ? m.pp_average_of_five({ average: average(reviews.average), max: formatNumber(5) })
                : m.rating_none()}
            </span>
          </div>
          <ul aria-label={m.pp_distribution()} className="mt-2 space-y-1">
            {[...reviews.distribution].reverse().map((d) => (
              <li key={d.stars} className="flex items-center gap-2 text-sm">
                <span className="w-16 shrink-0">
                  {m.pp_stars_row({ stars: formatNumber(d.stars) })}
                </span>
                <span className="h-2 flex-1 overflow-hidden rounded bg-slate-200">
                  <span
                    className="block h-full bg-accent-500"
                    style={{ width: `${(d.count / maxCount) * 100}%` }}
                  />
                </span>
                <span className="w-6 text-right">{formatNumber(d.count)}</span>
              </li>
            ))}
          </ul>
        </section>
        <Reviews professionalId={profile._id as Id<"professionals">} />
      </div>
    </main>
  );
}

function Reviews({ professionalId }: { professionalId: Id<"professionals"> }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.reviews.page,
    { professionalId },
    { initialNumItems: REVIEWS_PAGE },
  );
  const { isAuthenticated } = useConvexAuth();
  const own = useQuery(api.professionals.me, isAuthenticated ? {} : "skip");
  const mine = own?._id === professionalId;
  return (
    <section aria-labelledby="reviews-heading" className="min-w-0">
      <h2 id="reviews-heading" className="text-lg font-semibold">
        {m.pp_reviews()}
      </h2>
      {status === "LoadingFirstPage" ? (
        <LoadingState label={m.pp_loading_reviews()} />
      ) : results.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{m.pp_no_reviews()}</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {results.map((r) => (
            <li
              key={r._id}
              aria-label={m.pp_review_by({ name: r.customerName })}
              className="rounded-xl border border-slate-200 bg-white p-3"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <StarRating value={r.rating} />
                <span className="text-xs text-slate-500">
                  <span translate="no">{r.customerName}</span> · {formatDay(r.at)}
                </span>
              </div>
              {r.comment && (
                <p className="mt-2 text-sm text-slate-800" translate="no">
                  {r.comment}
                </p>
              )}
              {r.reply ? (
                <p className="mt-2 rounded-lg bg-slate-50 p-2 text-sm text-slate-700">
                  <span className="font-medium">{m.pp_reply_from()}</span>{" "}
                  <span translate="no">{r.reply.text}</span>
                </p>
              ) : (
                mine && <ReplyForm reviewId={r._id} />
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(REVIEWS_PAGE)}
        label={m.pp_older_reviews()}
        loadingLabel={m.pp_loading_older()}
      />
    </section>
  );
}

function ReplyForm({ reviewId }: { reviewId: Id<"reviews"> }) {
  const reply = useMutation(api.reviews.reply);
  const [text, setText] = useState("");
  const { busy, run } = useBusyCall();
  return (
    <div className="mt-2">
      <TextareaField
        label={m.pp_reply_label()}
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button
        size="sm"
        className="mt-2"
        disabled={busy || text.trim().length < 2}
        onClick={() => void run(() => reply({ reviewId, text }), m.pp_reply_failed())}
      >
        {m.pp_send_reply()}
      </Button>
    </div>
  );
}
