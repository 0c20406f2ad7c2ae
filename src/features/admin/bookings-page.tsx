import { usePaginatedQuery } from "convex/react";
import { useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES, type CitySlug } from "@convex/constants";
import { BOOKING_STATUSES, type BookingStatus } from "@convex/rules/bookingLifecycle";
import { bookingStatusBadge } from "@/components/booking-status";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { SelectField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localServiceName } from "@/i18n/services";
import { formatDateTime } from "@/lib/format";
import { formatNrs } from "@/lib/rupees";
import { paths, type AdminBookingFilters } from "@/lib/paths";

const PAGE_SIZE = 20;

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

/**
 * /admin/bookings: every booking, newest first, live. Filters: status, and one of city, professional
 * or customer (the server serves each pair from an index); a person is picked from a row's name.
 */
export default function BookingsPage() {
  const [params, setParams] = useSearchParams();
  const filters: AdminBookingFilters = Object.fromEntries(
    ["status", "city", "professional", "customer", "who"]
      .map((k) => [k, params.get(k) ?? undefined])
      .filter(([, v]) => v !== undefined),
  );
  const status = pick(params.get("status"), BOOKING_STATUSES);
  const city = pick(
    params.get("city"),
    CITIES.map((c) => c.slug),
  );
  /** Replaces some filters; a city, a professional and a customer exclude each other. */
  const update = (next: AdminBookingFilters) => {
    const narrowing = "city" in next || "professional" in next || "customer" in next;
    const merged: AdminBookingFilters = narrowing
      ? { status: filters.status, ...next }
      : { ...filters, ...next };
    setParams(new URLSearchParams(paths.adminBookings(merged).split("?")[1] ?? ""), {
      replace: true,
    });
  };
  const person = filters.professional
    ? { kind: m.label_professional(), name: filters.who ?? "" }
    : filters.customer
      ? { kind: m.label_customer(), name: filters.who ?? "" }
      : null;

  return (
    <AdminPageLayout
      title={m.label_bookings()}
      loadError={m.admin_bookings_load_failed()}
      controls={
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <SelectField
            label={m.admin_bookings_status()}
            className="w-full sm:w-48"
            value={status ?? ""}
            onChange={(e) => update({ status: e.target.value || undefined })}
          >
            <option value="">{m.admin_bookings_all_statuses()}</option>
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {bookingStatusBadge(s, "admin").label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={m.label_city()}
            className="w-full sm:w-48"
            value={city ?? ""}
            onChange={(e) => update({ city: e.target.value || undefined })}
          >
            <option value="">{m.admin_filter_all_cities()}</option>
            {CITIES.map((c) => (
              <option key={c.slug} value={c.slug}>
                {localCityName(c.slug)}
              </option>
            ))}
          </SelectField>
          {person && (
            <p className="flex items-center gap-2 rounded-full bg-white px-3 py-1.5 text-sm ring-1 ring-slate-300">
              <span>
                {person.kind}: <strong>{person.name || m.admin_unnamed_user()}</strong>
              </span>
              <button
                type="button"
                className="rounded-full px-1 text-slate-500 hover:bg-slate-100"
                aria-label={m.admin_bookings_clear_person()}
                onClick={() => update({ professional: undefined, customer: undefined })}
              >
                ×
              </button>
            </p>
          )}
        </div>
      }
    >
      <BookingsList
        status={status}
        city={person ? undefined : city}
        professionalId={filters.professional as Id<"professionals"> | undefined}
        customerId={
          filters.professional ? undefined : (filters.customer as Id<"users"> | undefined)
        }
        onPick={update}
      />
    </AdminPageLayout>
  );
}

function BookingsList({
  onPick,
  ...args
}: {
  status?: BookingStatus;
  city?: CitySlug;
  professionalId?: Id<"professionals">;
  customerId?: Id<"users">;
  onPick: (f: AdminBookingFilters) => void;
}) {
  const { results, status, loadMore } = usePaginatedQuery(api.adminBookings.list, args, {
    initialNumItems: PAGE_SIZE,
  });
  if (status === "LoadingFirstPage") return <LoadingState label={m.admin_bookings_loading()} />;
  if (results.length === 0)
    return (
      <div className="mt-4">
        <EmptyState title={m.admin_bookings_none()} />
      </div>
    );
  const personButton = (label: string, name: string, pick: AdminBookingFilters) => (
    <button
      type="button"
      className="text-left text-brand-700 underline decoration-dotted hover:decoration-solid"
      title={label}
      translate="no"
      onClick={() => onPick({ ...pick, who: name })}
    >
      {name || m.admin_unnamed_user()}
    </button>
  );
  return (
    <div className="mt-4">
      <ul className="space-y-2" aria-label={m.label_bookings()}>
        {results.map((b) => {
          const badge = bookingStatusBadge(b.status, "admin");
          const what = b.services.map((s) => localServiceName(s.name)).join(m.list_separator());
          return (
            <li
              key={b._id}
              aria-label={m.admin_bookings_row_label({ what, customer: b.customer.name })}
              className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{what}</p>
                  <p className="text-sm text-slate-600">
                    {formatDateTime(b.scheduledFor)} · {localCityName(b.city)} ·{" "}
                    {formatNrs(b.price)}
                  </p>
                </div>
                <Badge tone={badge.tone}>{badge.label}</Badge>
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-slate-500">{m.label_customer()}</dt>
                <dd className="min-w-0">
                  {personButton(m.admin_bookings_filter_by_customer(), b.customer.name, {
                    customer: b.customer._id,
                  })}
                </dd>
                <dt className="text-slate-500">{m.label_professional()}</dt>
                <dd className="min-w-0">
                  {personButton(m.admin_bookings_filter_by_professional(), b.professional.name, {
                    professional: b.professional._id,
                  })}
                </dd>
              </dl>
              <Link
                to={paths.adminBooking(b._id)}
                className={buttonClasses("secondary", "sm", "mt-3")}
              >
                {m.admin_bookings_open()}
              </Link>
            </li>
          );
        })}
      </ul>
      {status === "CanLoadMore" && (
        <Button variant="secondary" className="mt-4" onClick={() => loadMore(PAGE_SIZE)}>
          {m.admin_bookings_more()}
        </Button>
      )}
      {status === "LoadingMore" && <LoadingState label={m.admin_bookings_loading()} />}
    </div>
  );
}
