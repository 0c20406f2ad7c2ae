import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { Pin } from "@convex/rules/pin";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { formatNrs } from "@/lib/rupees";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { CITIES } from "@convex/constants";
import { ServiceChoices, type Priced } from "@/features/bookings/booking-dialog";
import { PinField } from "@/features/bookings/pin-field";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";

/** /now: "the nearest available <service> now" at a pinned address, and the search, live. */
export default function NearestNowPage() {
  const [params] = useSearchParams();
  const serviceName = params.get("serviceName") ?? "";
  const category = params.get("category") ?? "";
  const city = CITIES.find((c) => c.slug === params.get("city"));
  const requestId = params.get("request");
  if (!serviceName || !category || !city) return <EmptyState title={m.sp_choose_both()} />;
  return (
    <main className="mx-auto max-w-xl px-4 py-6">
      <h1 className="text-2xl font-bold">
        {m.now_title({
          service: localLandingService(serviceName),
          city: localCityName(city.slug),
        })}
      </h1>
      {requestId ? (
        <Search
          requestId={requestId as Id<"dispatchRequests">}
          serviceName={serviceName}
          cityName={city.name}
        />
      ) : (
        <RequestForm serviceName={serviceName} category={category} city={city} />
      )}
    </main>
  );
}

function RequestForm({
  serviceName,
  category,
  city,
}: {
  serviceName: string;
  category: string;
  city: (typeof CITIES)[number];
}) {
  const ask = useMutation(api.dispatch.request);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string[]>([]);
  const [prices, setPrices] = useState<Record<string, Priced>>({});
  const [address, setAddress] = useState("");
  const [pin, setPin] = useState<Pin | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const total = selected.reduce((sum, n) => sum + (prices[n]?.price ?? 0), 0);
  const submit = async () => {
    setError(null);
    if (selected.length === 0) return setError(m.book_choose_service());
    if (pin === null) return setError(m.now_pin_needed());
    setBusy(true);
    try {
      const requestId = await ask({
        serviceIds: selected.map((n) => prices[n].id),
        city: city.slug,
        address: address.trim(),
        pin,
      });
      navigate(paths.nearestNow(serviceName, category, city.slug, requestId), { replace: true });
    } catch (e) {
      setError(errorMessage(e, m.book_failed()));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="mt-4 space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="text-sm text-slate-600">{m.now_explain()}</p>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{m.book_services()}</legend>
        <ServiceChoices
          category={category}
          location={city.name}
          selected={selected}
          onPrice={(name, priced) =>
            setPrices((p) => (p[name]?.id === priced.id ? p : { ...p, [name]: priced }))
          }
          onToggle={(name, on) =>
            setSelected((s) => (on ? [...s, name] : s.filter((n) => n !== name)))
          }
        />
      </fieldset>
      <TextField
        label={m.label_address()}
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        autoComplete="street-address"
        hint={m.book_address_hint({ city: localCityName(city.slug) })}
      />
      <PinField city={city.slug} value={pin} onChange={setPin} label={m.now_pin_label()} />
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <div className="flex items-center justify-between gap-3">
        <span>
          {m.book_total()} <strong>{selected.length ? formatNrs(total) : "—"}</strong>
        </span>
        <Button type="submit" disabled={busy}>
          {busy ? m.book_busy() : m.now_find()}
        </Button>
      </div>
    </form>
  );
}

function Search({
  requestId,
  serviceName,
  cityName,
}: {
  requestId: Id<"dispatchRequests">;
  serviceName: string;
  cityName: string;
}) {
  const search = useQuery(api.dispatch.get, { requestId });
  const cancel = useMutation(api.dispatch.cancel);
  const [error, setError] = useState<string | null>(null);
  if (search === undefined) return <LoadingState label={m.now_loading()} />;
  if (search === null) return <EmptyState title={m.now_not_found()} />;
  const { offered, declined, timedOut } = search.progress;
  return (
    <section aria-live="polite" className="mt-4 rounded-2xl border border-slate-200 bg-white p-4">
      {search.status === "searching" && (
        <>
          <p className="font-semibold">{m.now_finding()}</p>
          <p className="mt-1 text-sm text-slate-700" data-testid="now-progress">
            {m.now_progress({
              offered: formatNumber(offered),
              declined: formatNumber(declined),
              passed: formatNumber(timedOut),
            })}
          </p>
          <Button
            className="mt-3"
            variant="secondary"
            onClick={() =>
              cancel({ requestId }).catch((e: unknown) =>
                setError(errorMessage(e, m.book_failed())),
              )
            }
          >
            {m.now_cancel()}
          </Button>
        </>
      )}
      {search.status === "matched" && (
        <>
          <p className="font-semibold text-emerald-800">{m.now_matched()}</p>
          <Link
            to={paths.customerBooking(search.bookingId ?? "")}
            className="mt-2 inline-block text-brand-700 underline"
          >
            {m.now_see_booking()}
          </Link>
        </>
      )}
      {search.status === "cancelled" && <p className="font-semibold">{m.now_cancelled()}</p>}
      {search.status === "unmatched" && (
        <>
          <p className="font-semibold">{m.now_unmatched()}</p>
          <Link
            to={paths.serviceSearch(serviceName, cityName)}
            className="mt-2 inline-block text-brand-700 underline"
          >
            {m.now_pick_time()}
          </Link>
        </>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}
