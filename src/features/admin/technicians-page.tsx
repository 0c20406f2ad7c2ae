import { useQuery } from "convex/react";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES, SPECIALTIES, type CitySlug, type SpecialtySlug } from "@convex/constants";
import { SelectField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import {
  FALLBACK,
  TechnicianCard,
  type VerificationStatus,
} from "@/features/admin/technician-card";
import { TechnicianDialog } from "@/features/admin/technician-dialog";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";

const VERIFICATIONS: { value: VerificationStatus; label: string }[] = [
  { value: "unverified", label: "Unverified (waiting)" },
  { value: "verified", label: "Verified" },
  { value: "rejected", label: "Rejected" },
];

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

/** The admin's technician grid: live, filterable by city, specialty and verification (kept in the URL). */
export default function TechniciansPage() {
  const [params, setParams] = useSearchParams();
  const city = pick<CitySlug>(
    params.get("city"),
    CITIES.map((c) => c.slug),
  );
  const specialty = pick<SpecialtySlug>(
    params.get("specialty"),
    SPECIALTIES.map((s) => s.slug),
  );
  const verification = pick<VerificationStatus>(
    params.get("verification"),
    VERIFICATIONS.map((v) => v.value),
  );

  function setFilter(key: "city" | "specialty" | "verification", value: string) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <AdminPageLayout
      title="Technicians"
      loadError="Technicians could not be loaded."
      controls={
        <form
          role="search"
          aria-label="Filter technicians"
          className="mt-4 grid gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:grid-cols-3 sm:p-4"
          onSubmit={(e) => e.preventDefault()}
        >
          <SelectField
            label="City"
            value={city ?? ""}
            onChange={(e) => setFilter("city", e.target.value)}
          >
            <option value="">All cities</option>
            {CITIES.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Specialty"
            value={specialty ?? ""}
            onChange={(e) => setFilter("specialty", e.target.value)}
          >
            <option value="">All specialties</option>
            {SPECIALTIES.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Verification"
            value={verification ?? ""}
            onChange={(e) => setFilter("verification", e.target.value)}
          >
            <option value="">Any status</option>
            {VERIFICATIONS.map((v) => (
              <option key={v.value} value={v.value}>
                {v.label}
              </option>
            ))}
          </SelectField>
        </form>
      }
    >
      <TechnicianGrid city={city} specialty={specialty} verification={verification} />
    </AdminPageLayout>
  );
}

type Filters = { city?: CitySlug; specialty?: SpecialtySlug; verification?: VerificationStatus };

function TechnicianGrid(filters: Filters) {
  const technicians = useQuery(api.admin.technicians, filters);
  const [openId, setOpenId] = useState<Id<"professionals"> | null>(null);
  if (technicians === undefined) return <LoadingState label="Loading technicians…" />;
  const filtered = filters.city || filters.specialty || filters.verification;
  return (
    <>
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {technicians.length} {technicians.length === 1 ? "technician" : "technicians"}
        {filtered ? " match the filters" : ""}
      </p>
      {technicians.length === 0 ? (
        <div className="mt-2">
          <EmptyState title={FALLBACK.list} />
        </div>
      ) : (
        <ul className="mt-2 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {technicians.map((t) => (
            <li key={t._id}>
              <TechnicianCard technician={t} onOpen={() => setOpenId(t._id)} />
            </li>
          ))}
        </ul>
      )}
      {openId && <TechnicianDialog professionalId={openId} onClose={() => setOpenId(null)} />}
    </>
  );
}
