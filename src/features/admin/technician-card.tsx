import { Avatar } from "@/components/avatar";
import { cityName } from "@convex/constants";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export type VerificationStatus = "unverified" | "verified" | "rejected";

/** What a card needs; every field may be missing on old or partial records (spec §2 fallbacks). */
export type TechnicianSummary = {
  name?: string | null;
  photoUrl?: string | null;
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
};

export const FALLBACK = {
  name: "No name available",
  specialty: "No specialty provided",
  location: "No location available",
  city: "No city available",
  state: "No state available",
  address: "No address available",
  zipCode: "No zip code available",
  list: "No technicians available",
} as const;

export const VERIFICATION: Record<VerificationStatus, { label: string; tone: BadgeTone }> = {
  unverified: { label: "Unverified", tone: "warning" },
  verified: { label: "Verified", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
};

function orFallback(value: string | null | undefined, fallback: string): string {
  return value && value.trim() ? value : fallback;
}

type Props = {
  technician: TechnicianSummary;
  onOpen: () => void;
};

/** One technician in the admin grid; the whole card is a button that opens the documents. */
export function TechnicianCard({ technician: t, onOpen }: Props) {
  const name = orFallback(t.name, FALLBACK.name);
  const location = t.locations?.[0];
  const status = t.verification ? VERIFICATION[t.verification.status] : null;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={`${name}, view documents`}
      className="flex h-full w-full flex-col rounded-2xl bg-white p-4 text-left shadow-sm ring-1 ring-slate-200 transition hover:ring-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <span className="flex items-center gap-3">
        <Avatar src={t.photoUrl} name={name} size={56} />
        <span className="min-w-0">
          <span className="block truncate font-semibold text-slate-900">{name}</span>
          <span className="block text-sm text-slate-600">
            {orFallback(t.specialtyName, FALLBACK.specialty)}
          </span>
        </span>
      </span>
      <span className="mt-3 flex flex-wrap gap-1">
        {status && <Badge tone={status.tone}>{status.label}</Badge>}
        {t.verification?.resubmittedAt && <Badge tone="info">Documents re-submitted</Badge>}
        {t.online && <Badge tone="success">Online</Badge>}
        {t.available === false && <Badge tone="neutral">Unavailable</Badge>}
      </span>
      {location ? (
        <span className="mt-3 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-sm">
          <span className="text-slate-500">City</span>
          <span className="text-slate-800">
            {location.city ? cityName(location.city) : FALLBACK.city}
          </span>
          <span className="text-slate-500">State</span>
          <span className="text-slate-800">{orFallback(location.state, FALLBACK.state)}</span>
          <span className="text-slate-500">Address</span>
          <span className="text-slate-800">{orFallback(location.address, FALLBACK.address)}</span>
          <span className="text-slate-500">Zip code</span>
          <span className="text-slate-800">{orFallback(location.zipCode, FALLBACK.zipCode)}</span>
        </span>
      ) : (
        <span className="mt-3 text-sm text-slate-600">{FALLBACK.location}</span>
      )}
    </button>
  );
}
