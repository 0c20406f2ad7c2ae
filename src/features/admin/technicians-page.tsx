import { usePaginatedQuery } from "convex/react";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES, SPECIALTIES, type CitySlug, type SpecialtySlug } from "@convex/constants";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import {
  FALLBACK,
  TechnicianCard,
  type VerificationStatus,
} from "@/features/admin/technician-card";
import { TechnicianDialog } from "@/features/admin/technician-dialog";
import { TechniciansMap } from "@/features/admin/technicians-map";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { formatNumber } from "@/lib/numbers";

const VERIFICATIONS: { value: VerificationStatus; label: () => string }[] = [
  { value: "unverified", label: m.admin_filter_unverified },
  { value: "verified", label: m.badge_verified },
  { value: "rejected", label: m.admin_verification_rejected },
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
  const [openId, setOpenId] = useState<Id<"professionals"> | null>(null);

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
      title={m.admin_nav_technicians()}
      loadError={m.admin_technicians_load_failed()}
      controls={
        <form
          role="search"
          aria-label={m.admin_technicians_filter()}
          className="mt-4 grid gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:grid-cols-3 sm:p-4"
          onSubmit={(e) => e.preventDefault()}
        >
          <SelectField
            label={m.label_city()}
            value={city ?? ""}
            onChange={(e) => setFilter("city", e.target.value)}
          >
            <option value="">{m.admin_filter_all_cities()}</option>
            {CITIES.map((c) => (
              <option key={c.slug} value={c.slug}>
                {localCityName(c.slug)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={m.label_specialty()}
            value={specialty ?? ""}
            onChange={(e) => setFilter("specialty", e.target.value)}
          >
            <option value="">{m.admin_filter_all_specialties()}</option>
            {SPECIALTIES.map((s) => (
              <option key={s.slug} value={s.slug}>
                {localCategoryName(s.slug, s.name)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={m.admin_filter_verification()}
            value={verification ?? ""}
            onChange={(e) => setFilter("verification", e.target.value)}
          >
            <option value="">{m.admin_filter_any_status()}</option>
            {VERIFICATIONS.map((v) => (
              <option key={v.value} value={v.value}>
                {v.label()}
              </option>
            ))}
          </SelectField>
        </form>
      }
    >
      <TechniciansMap city={city} specialty={specialty} onOpen={setOpenId} />
      <TechnicianGrid
        city={city}
        specialty={specialty}
        verification={verification}
        onOpen={setOpenId}
      />
      {openId && <TechnicianDialog professionalId={openId} onClose={() => setOpenId(null)} />}
    </AdminPageLayout>
  );
}

type Filters = { city?: CitySlug; specialty?: SpecialtySlug; verification?: VerificationStatus };

/** Cards per page: two or three whole rows of the grid. */
const PAGE = 24;

function TechnicianGrid({
  onOpen,
  ...filters
}: Filters & { onOpen: (id: Id<"professionals">) => void }) {
  const { results, status, loadMore } = usePaginatedQuery(api.admin.technicians, filters, {
    initialNumItems: PAGE,
  });
  if (status === "LoadingFirstPage") return <LoadingState label={m.admin_technicians_loading()} />;
  const filtered = filters.city || filters.specialty || filters.verification;
  const count = { count: formatNumber(results.length) };
  const one = results.length === 1;
  return (
    <>
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {status !== "Exhausted"
          ? filtered
            ? m.admin_technicians_count_first_filtered(count)
            : m.admin_technicians_count_first(count)
          : filtered
            ? one
              ? m.admin_technicians_count_filtered_one(count)
              : m.admin_technicians_count_filtered(count)
            : one
              ? m.admin_technicians_count_one(count)
              : m.admin_technicians_count(count)}
      </p>
      {results.length === 0 ? (
        <div className="mt-2">
          <EmptyState title={FALLBACK.list()} />
        </div>
      ) : (
        <ul className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {results.map((t) => (
            <li key={t._id}>
              <TechnicianCard technician={t} onOpen={() => onOpen(t._id)} />
            </li>
          ))}
        </ul>
      )}
      {status !== "Exhausted" && (
        <Button
          variant="secondary"
          className="mt-4 w-full sm:w-auto"
          disabled={status === "LoadingMore"}
          onClick={() => loadMore(PAGE)}
        >
          {status === "LoadingMore" ? m.admin_technicians_loading() : m.admin_technicians_more()}
        </Button>
      )}
    </>
  );
}
