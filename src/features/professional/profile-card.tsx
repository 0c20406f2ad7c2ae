import { useMutation, useQuery } from "convex/react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { Link } from "@/components/link";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { bookability } from "@convex/rules/bookability";
import { Avatar } from "@/components/avatar";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { ResubmitDocuments } from "@/features/professional/resubmit-documents";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { formatDigits, formatNumber } from "@/lib/numbers";

const STATUS: Record<
  "unverified" | "verified" | "rejected",
  { label: () => string; tone: BadgeTone; help: () => string }
> = {
  unverified: { label: m.badge_unverified, tone: "warning", help: m.pc_help_unverified },
  verified: { label: m.badge_verified, tone: "success", help: m.pc_help_verified },
  rejected: { label: m.pc_status_rejected, tone: "danger", help: m.pc_help_rejected },
};

/** '4.8 (23 reviews)' from real reviews, or 'No reviews yet'. */
export function ratingText({ average, count }: { average: number; count: number }): string {
  if (count === 0) return m.rating_none();
  const value = formatNumber(Math.round(average * 10) / 10);
  return count === 1
    ? m.pc_rating_one({ average: value })
    : m.pc_rating_many({ average: value, count: formatNumber(count) });
}

export function ProfileCard() {
  const me = useQuery(api.professionals.me);
  const viewer = useQuery(api.users.viewer);
  if (me === undefined) {
    return (
      <Card>
        <LoadingState label={m.pc_loading()} />
      </Card>
    );
  }
  if (me === null) {
    return <ErrorState title={m.pc_not_found()} />;
  }
  const first = me.locations[0];
  const status = STATUS[me.verification.status];
  return (
    <Card>
      <div className="flex items-center gap-4">
        <Avatar src={me.photoUrl} name={me.name} size={64} />
        <div className="min-w-0">
          <h2 className="truncate text-lg font-semibold text-slate-900">{me.name}</h2>
          <p className="text-sm text-slate-600">
            {localCategoryName(me.specialty, me.specialtyName)}
          </p>
          <p className="text-sm text-slate-600">
            {first
              ? `${localCityName(first.city)}${first.zipCode ? `, ${formatDigits(first.zipCode)}` : ""}`
              : m.pc_no_location()}
          </p>
        </div>
      </div>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex items-center justify-between gap-2">
          <dt className="text-slate-600">{m.pp_rating()}</dt>
          <dd className="font-medium text-slate-900">
            {me.rating.count > 0 && (
              <span aria-hidden="true" className="mr-1 text-accent-500">
                ★
              </span>
            )}
            {ratingText(me.rating)}
          </dd>
        </div>
        <div className="flex items-center justify-between gap-2">
          <dt className="text-slate-600">{m.pc_account_status()}</dt>
          <dd>
            <Badge tone={status.tone}>{status.label()}</Badge>
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-500">{status.help()}</p>
      {viewer?.phoneVerified === false && (
        <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {m.pc_phone_unverified()}{" "}
          <Link
            to={`${paths.professionalAccount()}?tab=security`}
            className="font-medium underline"
          >
            {m.pc_phone_verify()}
          </Link>
        </p>
      )}
      {me.verification.note && (
        <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span className="font-medium">{m.pc_note_from_gharsewa()}</span> {me.verification.note}
        </p>
      )}
      {me.verification.status === "rejected" && <Resubmit documents={me.documents} />}
      <AvailabilityToggle
        available={me.available}
        verified={me.verification.status === "verified"}
        onHold={me.onHold}
      />
    </Card>
  );
}

/** Rejected professionals send new document images from here; the badge turns Unverified by itself. */
function Resubmit({
  documents,
}: {
  documents: ComponentProps<typeof ResubmitDocuments>["current"];
}) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="sm" className="mt-3 w-full sm:w-auto" onClick={() => setOpen(true)}>
        {m.pc_resubmit()}
      </Button>
    );
  }
  return <ResubmitDocuments current={documents} onDone={() => setOpen(false)} />;
}

function AvailabilityToggle({
  available,
  verified,
  onHold,
}: {
  available: boolean;
  verified: boolean;
  onHold: boolean;
}) {
  const canBook = bookability({ available, verified, onHold });
  const setAvailability = useMutation(api.professionals.setAvailability);
  const { busy, run } = useBusyCall();
  async function toggle() {
    if (await run(() => setAvailability({ available: !available }), m.pc_availability_failed()))
      toast.success(available ? m.pc_now_unavailable() : m.pc_now_available());
  }
  return (
    <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
      <div>
        <p id="availability-label" className="text-sm font-medium text-slate-900">
          {m.pc_available_label()}
        </p>
        <p className="text-xs text-slate-500">
          {canBook.bookable
            ? m.pc_bookable()
            : !available
              ? m.pc_hidden()
              : canBook.code === "PROFESSIONAL_UNVERIFIED"
                ? m.bookable_own_unverified()
                : canBook.code === "PROFESSIONAL_ON_HOLD"
                  ? m.bookable_own_on_hold()
                  : m.bookable_own_unavailable()}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={available}
        aria-labelledby="availability-label"
        disabled={busy}
        onClick={() => void toggle()}
        className="inline-flex h-11 w-14 shrink-0 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
      >
        <span
          aria-hidden="true"
          className={`inline-flex h-7 w-12 items-center rounded-full transition-colors ${
            available ? "bg-brand-600" : "bg-slate-300"
          }`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${
              available ? "translate-x-6" : "translate-x-1"
            }`}
          />
        </span>
      </button>
    </div>
  );
}

function Card({ children }: { children: ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      {children}
    </section>
  );
}
