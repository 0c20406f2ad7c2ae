import { Avatar } from "@/components/avatar";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { NO_SHOW } from "@convex/rules/noShow";

export type VerificationStatus = "unverified" | "verified" | "rejected";

/** What a card needs; every field may be missing on old or partial records (spec §2 fallbacks). */
export type TechnicianSummary = {
  name?: string | null;
  photoUrl?: string | null;
  specialty?: string | null;
  specialtyName?: string | null;
  locations?:
    | {
        city?: string | null;
        state?: string | null;
        address?: string | null;
        zipCode?: string | null;
      }[]
    | null;
  verification?: {
    status: VerificationStatus;
    note?: string | null;
    resubmittedAt?: number | null;
  } | null;
  available?: boolean | null;
  online?: boolean | null;
  /** The professional's phone number was verified by an SMS code. */
  phoneVerified?: boolean | null;
  /** No-show strikes within the window (rules/noShow.ts) and whether they put the professional on hold. */
  noShows?: { strikes: number; held: boolean } | null;
};

/** The spec's fallbacks, in the reader's language (English exactly as the spec words them). */
export const FALLBACK = {
  name: m.admin_fallback_name,
  specialty: m.admin_fallback_specialty,
  location: m.admin_fallback_location,
  city: m.admin_fallback_city,
  state: m.admin_fallback_state,
  address: m.admin_fallback_address,
  zipCode: m.admin_fallback_zip,
  list: m.admin_fallback_list,
} as const;

export const VERIFICATION: Record<VerificationStatus, { label: () => string; tone: BadgeTone }> = {
  unverified: { label: m.badge_unverified, tone: "warning" },
  verified: { label: m.badge_verified, tone: "success" },
  rejected: { label: m.admin_verification_rejected, tone: "danger" },
};

/** A technician's specialty in the reader's language, from its slug (and the server's English name). */
export function specialtyLabel(t: Pick<TechnicianSummary, "specialty" | "specialtyName">): string {
  const name = t.specialtyName?.trim();
  if (!name) return FALLBACK.specialty();
  return t.specialty ? localCategoryName(t.specialty, name) : name;
}

function orFallback(value: string | null | undefined, fallback: string): string {
  return value && value.trim() ? value : fallback;
}

type Props = {
  technician: TechnicianSummary;
  onOpen: () => void;
};

/** One technician in the admin grid; the whole card is a button that opens the documents. */
export function TechnicianCard({ technician: t, onOpen }: Props) {
  const name = orFallback(t.name, FALLBACK.name());
  const location = t.locations?.[0];
  const status = t.verification ? VERIFICATION[t.verification.status] : null;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={m.admin_card_open({ name })}
      className="flex h-full w-full flex-col rounded-2xl bg-white p-4 text-left shadow-sm ring-1 ring-slate-200 transition hover:ring-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <span className="flex items-center gap-3">
        <Avatar src={t.photoUrl} name={name} size={56} />
        <span className="min-w-0">
          <span className="block truncate font-semibold text-slate-900" translate="no">
            {name}
          </span>
          <span className="block text-sm text-slate-600">{specialtyLabel(t)}</span>
        </span>
      </span>
      <span className="mt-3 flex flex-wrap gap-1">
        {status && <Badge tone={status.tone}>{status.label()}</Badge>}
        {t.verification?.resubmittedAt && <Badge tone="info">{m.admin_card_resubmitted()}</Badge>}
        {t.online && <Badge tone="success">{m.admin_card_online()}</Badge>}
        {t.available === false && <Badge tone="neutral">{m.admin_card_unavailable()}</Badge>}
        {t.phoneVerified === true && <Badge tone="success">{m.admin_phone_verified()}</Badge>}
        {t.phoneVerified === false && <Badge tone="warning">{m.admin_phone_not_verified()}</Badge>}
        {t.noShows?.held && <Badge tone="danger">{m.admin_card_no_show_hold()}</Badge>}
      </span>
      {t.noShows && (
        <span className="mt-3 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <span className="text-slate-500">{m.admin_card_no_shows()}</span>
          <span className={t.noShows.strikes > 0 ? "font-medium text-red-700" : "text-slate-800"}>
            {m.admin_card_no_show_strikes({
              count: formatNumber(t.noShows.strikes),
              max: formatNumber(NO_SHOW.strikes),
            })}
          </span>
        </span>
      )}
      {location ? (
        <span className="mt-3 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-sm">
          <span className="text-slate-500">{m.label_city()}</span>
          <span className="text-slate-800">
            {location.city ? localCityName(location.city) : FALLBACK.city()}
          </span>
          <span className="text-slate-500">{m.label_state()}</span>
          <span className="text-slate-800" translate={location.state?.trim() ? "no" : undefined}>
            {orFallback(location.state, FALLBACK.state())}
          </span>
          <span className="text-slate-500">{m.label_address()}</span>
          <span className="text-slate-800" translate={location.address?.trim() ? "no" : undefined}>
            {orFallback(location.address, FALLBACK.address())}
          </span>
          <span className="text-slate-500">{m.label_zip()}</span>
          <span className="text-slate-800">
            {location.zipCode?.trim() ? formatDigits(location.zipCode) : FALLBACK.zipCode()}
          </span>
        </span>
      ) : (
        <span className="mt-3 text-sm text-slate-600">{FALLBACK.location()}</span>
      )}
    </button>
  );
}
