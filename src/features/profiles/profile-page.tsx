import { useState, type ComponentType } from "react";
import { Link, useParams } from "react-router-dom";
import { useConvexAuth, useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { SPECIALTIES } from "@convex/constants";
import { clock } from "@convex/rules/schedule";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TextareaField } from "@/components/ui/inputs";
import { StarRating } from "@/components/ui/star-rating";
import { EmptyState, LoadingState } from "@/components/ui/states";
import type { BookActionProps } from "@/lib/booking-intent";
import { errorMessage } from "@/lib/errors";
import { formatGregorianDate, formatNrs } from "@/lib/format";
import { paths } from "@/lib/paths";

const REVIEWS_PAGE = 5;

/** "about 12 minutes": the median time from request to acceptance. */
function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hour${hours === 1 ? "" : "s"}`;
}

/**
 * /professionals/:id — a professional's public profile: who, where they work, verification, rating
 * with its distribution, reviews with comments and replies, jobs done, response time, services with
 * prices. No home address or phone (model/professionals.ts profileFor decides who sees those).
 */
export function ProfilePage({ BookAction }: { BookAction: ComponentType<BookActionProps> }) {
  const { id = "" } = useParams();
  const profile = useQuery(api.professionals.get, { professionalId: id as Id<"professionals"> });
  if (profile === undefined) return <LoadingState label="Loading the profile…" />;
  if (profile === null)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <EmptyState title="This professional was not found.">
          <Link to={paths.services()} className="text-brand-700 underline">
            Find another professional
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
                ✓ Verified
                {profile.verifiedAt !== null && ` ${formatGregorianDate(profile.verifiedAt)}`}
              </Badge>
            ) : (
              <Badge>Unverified</Badge>
            )}
          </div>
          <p className="text-slate-700">
            {profile.specialtyName} · {profile.cityName}
          </p>
          <p className="text-sm text-slate-600">
            Works in {[...new Set(profile.serviceArea.map((a) => a.cityName))].join(", ")}
            {profile.workingHours &&
              ` · ${clock(profile.workingHours.start)}–${clock(profile.workingHours.end)}`}
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-500">Completed jobs</dt>
              <dd className="font-semibold">{profile.completedJobs}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Member since</dt>
              <dd className="font-semibold">{formatGregorianDate(profile.memberSince)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Responds in</dt>
              <dd className="font-semibold">
                {profile.medianAcceptMs === null ? "—" : duration(profile.medianAcceptMs)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Rating</dt>
              <dd className="font-semibold">
                {reviews.count ? `${reviews.average.toFixed(1)} (${reviews.count})` : "None yet"}
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
            Services and prices in {profile.cityName}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {profile.services.map((s) => (
              <li key={s.name} className="flex justify-between gap-3 px-3 py-2 text-sm">
                <span>{s.name}</span>
                <span className="font-medium whitespace-nowrap">{formatNrs(s.price)}</span>
              </li>
            ))}
          </ul>
          <h2 className="mt-6 text-lg font-semibold">Rating</h2>
          <div className="mt-2 flex items-center gap-2">
            <StarRating value={reviews.average} />
            <span className="text-sm text-slate-700">
              {reviews.count ? `${reviews.average.toFixed(1)} of 5` : "No reviews yet"}
            </span>
          </div>
          <ul aria-label="Rating distribution" className="mt-2 space-y-1">
            {[...reviews.distribution].reverse().map((d) => (
              <li key={d.stars} className="flex items-center gap-2 text-sm">
                <span className="w-12">{d.stars} star</span>
                <span className="h-2 flex-1 overflow-hidden rounded bg-slate-200">
                  <span
                    className="block h-full bg-accent-500"
                    style={{ width: `${(d.count / maxCount) * 100}%` }}
                  />
                </span>
                <span className="w-6 text-right">{d.count}</span>
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
        Reviews
      </h2>
      {status === "LoadingFirstPage" ? (
        <LoadingState label="Loading reviews…" />
      ) : results.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No reviews yet.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {results.map((r) => (
            <li
              key={r._id}
              aria-label={`Review by ${r.customerName}`}
              className="rounded-xl border border-slate-200 bg-white p-3"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <StarRating value={r.rating} />
                <span className="text-xs text-slate-500">
                  {r.customerName} · {formatGregorianDate(r.at)}
                </span>
              </div>
              {r.comment && <p className="mt-2 text-sm text-slate-800">{r.comment}</p>}
              {r.reply ? (
                <p className="mt-2 rounded-lg bg-slate-50 p-2 text-sm text-slate-700">
                  <span className="font-medium">Reply from the professional:</span> {r.reply.text}
                </p>
              ) : (
                mine && <ReplyForm reviewId={r._id} />
              )}
            </li>
          ))}
        </ul>
      )}
      {status === "CanLoadMore" && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-3 w-full"
          onClick={() => loadMore(REVIEWS_PAGE)}
        >
          Show older reviews
        </Button>
      )}
    </section>
  );
}

function ReplyForm({ reviewId }: { reviewId: Id<"reviews"> }) {
  const reply = useMutation(api.reviews.reply);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  async function send() {
    setBusy(true);
    try {
      await reply({ reviewId, text });
    } catch (e) {
      toast.error(errorMessage(e, "The reply could not be sent."));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="mt-2">
      <TextareaField
        label="Reply once (everyone can read it)"
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button
        size="sm"
        className="mt-2"
        disabled={busy || text.trim().length < 2}
        onClick={() => void send()}
      >
        Send reply
      </Button>
    </div>
  );
}
