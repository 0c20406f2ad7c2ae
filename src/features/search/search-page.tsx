import { Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from "react";
import { LazyMarkersMap } from "@/components/map/lazy-markers-map";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { useConvexAuth, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { CITIES } from "@convex/constants";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { SelectField } from "@/components/ui/inputs";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useRoundedPositions, type OnMap } from "@/lib/use-rounded-positions";
import { ProfessionalsList } from "@/features/search/professionals-list";
import {
  categoryFromServiceName,
  cityFor,
  detailsView,
  specialtyFor,
} from "@/features/search/search-logic";
import type { BookActionProps } from "@/lib/booking-intent";
import { SEARCH_MAP } from "@/lib/map-constants";
import { rememberCity } from "@/lib/search-options";
import { useInView } from "@/lib/use-in-view";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";
import { localServiceName } from "@/i18n/services";
import { OnlineCount } from "@/components/map/online-count";

/** /services/search; `BookAction` (the bookings feature) is composed in by the route. */
export function SearchPage({ BookAction }: { BookAction: ComponentType<BookActionProps> }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const serviceName = params.get("serviceName") ?? "";
  const location = params.get("location") ?? "";
  const preselected = params.get("service") ?? "";
  const without = params.get("without") ?? undefined;
  const category = categoryFromServiceName(serviceName);
  const city = cityFor(location);
  const specialty = specialtyFor(category) ?? specialtyFor(serviceName);
  useEffect(() => {
    if (city) rememberCity(city.name);
  }, [city]);
  // On a phone the map is below the list: until the list has arrived, the map's place is on the first
  // screen only because the list is not there yet, so the map waits for it.
  const hasList = Boolean(city && specialty);
  const [listSettled, setListSettled] = useState(false);
  const settleList = useCallback(() => setListSettled(true), []);

  if (!serviceName) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <EmptyState title={m.sp_no_service()}>
          {m.sp_pick_on()}{" "}
          <Link to={paths.services()} className="text-brand-700 underline">
            {m.sp_services_page()}
          </Link>
          .
        </EmptyState>
      </main>
    );
  }

  return (
    <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-slate-500">
            <Link to={paths.services()} className="underline">
              {m.nav_services()}
            </Link>{" "}
            › {localLandingService(serviceName)}
          </p>
          <h1 className="text-2xl font-bold sm:text-3xl">
            {m.sp_heading({
              service: localLandingService(serviceName),
              city: city ? localCityName(city.slug) : location || m.sp_your_city(),
            })}
          </h1>
        </div>
        {/* beside the city, not under the heading: on a phone the first Book stays on the first screen */}
        <div className="flex items-end gap-2">
          <SelectField
            label={m.label_location()}
            wrapperClassName="min-w-0 flex-1 sm:w-56 sm:flex-none"
            value={city?.name ?? ""}
            onChange={(e) =>
              navigate(paths.serviceSearch(serviceName, e.target.value), { replace: true })
            }
          >
            {!city && <option value="">{m.sp_select_location()}</option>}
            {CITIES.map((c) => (
              <option key={c.slug} value={c.name}>
                {localCityName(c.slug)}
              </option>
            ))}
          </SelectField>
          {city && (
            <Link
              to={paths.nearestNow(serviceName, category, city.slug)}
              className="max-w-[50%] shrink-0 rounded-lg bg-brand-700 px-3 py-2 text-center text-sm font-semibold text-white"
            >
              {m.now_link({ service: localLandingService(serviceName) })}
            </Link>
          )}
        </div>
      </div>

      {/* On a phone the list comes before the map: Book is what people came for. */}
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <div className="min-w-0 lg:col-start-1 lg:row-start-1">
          <ErrorBoundary
            key={`${category}/${location}`}
            onError={() => toast.error(m.sp_names_failed())}
            fallback={(_, retry) => <ErrorState title={m.sp_names_failed()} onRetry={retry} />}
          >
            <ServicePanel
              category={category}
              location={city?.name ?? location}
              preselected={preselected}
            />
          </ErrorBoundary>
        </div>
        <section
          aria-labelledby="pros-heading"
          className="min-w-0 lg:col-span-2 lg:row-start-2 lg:mt-4"
        >
          <h2 id="pros-heading" className="text-xl font-bold">
            {m.sp_pros_near()}
          </h2>
          <ErrorBoundary
            onError={settleList}
            fallback={() => <ErrorState title={m.sp_pros_failed()} />}
          >
            {city && specialty ? (
              <ProfessionalsList
                specialty={specialty}
                city={city}
                category={category}
                without={without}
                BookAction={BookAction}
                onSettled={settleList}
              />
            ) : (
              <EmptyState title={m.sp_choose_both()} />
            )}
          </ErrorBoundary>
        </section>
        <div className="min-w-0 lg:col-start-2 lg:row-start-1">
          <ErrorBoundary fallback={() => <ErrorState title={m.sp_map_failed()} />}>
            <LiveMap
              city={city}
              specialty={specialty}
              without={without}
              waitForList={hasList && !listSettled}
            />
          </ErrorBoundary>
        </div>
      </div>
    </main>
  );
}

function ServicePanel({
  category,
  location,
  preselected,
}: {
  category: string;
  location: string;
  preselected: string;
}) {
  const names = useQuery(api.catalog.serviceNames, { category });
  const [selected, setSelected] = useState(preselected);

  return (
    <section
      aria-labelledby="details-heading"
      className="self-start rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="details-heading" className="sr-only">
        {m.sp_details()}
      </h2>
      {names === undefined ? (
        <LoadingState label={m.state_loading_services()} />
      ) : names.length === 0 ? (
        <EmptyState title={m.sp_no_services()} />
      ) : (
        <SelectField
          label={m.sp_select_service()}
          hint={selected ? undefined : m.sp_select_to_view()}
          value={selected}
          onChange={(e) => setSelected(e.target.value)}
        >
          <option value="">{m.sp_select_service()}</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {localServiceName(n)}
            </option>
          ))}
        </SelectField>
      )}
      {selected && (
        <div className="mt-5">
          <ErrorBoundary
            key={selected}
            onError={() => toast.error(m.sp_details_failed())}
            fallback={() => <ErrorState title={m.sp_details_failed()} />}
          >
            <Details category={category} serviceName={selected} location={location} />
          </ErrorBoundary>
        </div>
      )}
    </section>
  );
}

function Details({
  category,
  serviceName,
  location,
}: {
  category: string;
  serviceName: string;
  location: string;
}) {
  const details = useQuery(api.catalog.serviceDetails, { category, serviceName, location });
  if (details === undefined) return <LoadingState label={m.sp_loading_details()} />;
  const view = detailsView(details);
  return (
    <div>
      {details === null && (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {m.sp_maybe_unavailable()}
        </p>
      )}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-2xl font-bold text-brand-700">
          <span className="sr-only">{m.sp_price()} </span>
          {view.price}
        </p>
        <p className="text-sm text-slate-700">
          {m.sp_guarantee()} <span className="font-medium">{view.guarantee}</span>
        </p>
      </div>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-medium text-slate-500">{m.sp_service()}</dt>
        <dd>{view.service}</dd>
        <dt className="font-medium text-slate-500">{m.label_location()}</dt>
        <dd>{view.location}</dd>
        <dt className="font-medium text-slate-500">{m.sp_description()}</dt>
        <dd>{view.description}</dd>
        <dt className="font-medium text-slate-500">{m.sp_charge()}</dt>
        <dd>{view.serviceCharge}</dd>
        <dt className="font-medium text-slate-500">{m.sp_total_bookings()}</dt>
        <dd>{view.totalBookings}</dd>
      </dl>
    </div>
  );
}

/**
 * Live positions: Convex subscriptions, so markers move as professionals report. Leaflet and the
 * per-marker subscriptions start only once a quarter of the map is on the screen and the browser is idle:
 * on a phone the list comes first, and the map's setup would otherwise hold up the list's first use.
 */
function LiveMap({
  city,
  specialty,
  without,
  waitForList,
}: {
  city: ReturnType<typeof cityFor>;
  specialty: ReturnType<typeof specialtyFor>;
  /** a professional the customer is looking past (the one who rejected them), as the list leaves out */
  without?: string;
  waitForList: boolean;
}) {
  // Who is on the map (changes when someone comes or goes), then one subscription per marker for its
  // rounded position: a professional's move re-sends one small result, as a Socket.IO map gets one
  // message per moved marker. Both are the same for everyone, so all watchers share each run.
  const everyone = useQuery(api.locations.onMap, {
    ...(city ? { city: city.slug } : {}),
    ...(specialty ? { specialty } : {}),
  });
  // one array per answer: the markers' subscriptions (useRoundedPositions) are keyed on it
  const listed = useMemo(
    () => everyone?.filter((p) => p.professionalId !== without),
    [everyone, without],
  );
  const { ref, shown } = useInView<HTMLDivElement>(!waitForList);
  // The map's place, its size and name; it says "Loading map…" only once the map is loading.
  const place = (loading: boolean) => (
    <div
      role="region"
      aria-label={m.sp_map_label()}
      aria-busy={loading}
      className="flex items-center justify-center rounded-lg bg-slate-200 text-sm text-slate-600"
      style={{ height: SEARCH_MAP.heightPx }}
    >
      {loading && m.state_loading_map()}
    </div>
  );
  return (
    <div>
      <div ref={ref}>
        {shown ? (
          <Suspense fallback={place(true)}>
            <PositionsMap city={city} listed={listed ?? []} />
          </Suspense>
        ) : (
          place(false)
        )}
      </div>
      <OnlineCount count={listed?.length} one={m.sp_online_one} many={m.sp_online_many} />
    </div>
  );
}

function PositionsMap({ city, listed }: { city: ReturnType<typeof cityFor>; listed: OnMap }) {
  const rounded = useRoundedPositions(listed);
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const tracked = useQuery(
    api.locations.forActiveBookings,
    viewer?.role === "customer" ? {} : "skip",
  );
  // a customer's active bookings add their professionals' exact positions, which replace the rounded ones
  const exact = new Map((tracked ?? []).map((t) => [t.professionalId, t]));
  const markers = listed.flatMap((p) => {
    const precise = exact.get(p.professionalId);
    const at = precise ?? rounded.get(p.professionalId);
    if (at === undefined) return [];
    return [
      {
        id: p.professionalId,
        lat: at.lat,
        lng: at.lng,
        exact: precise !== undefined,
        label: `${p.name} · ${localLandingService(p.specialtyName)}`,
        action: (
          <Link
            to={paths.professionalProfile(p.professionalId)}
            className="text-brand-700 underline"
          >
            {m.sp_view_profile()}
          </Link>
        ),
      },
    ];
  });
  return (
    <LazyMarkersMap
      center={city ? [city.lat, city.lng] : SEARCH_MAP.center}
      zoom={SEARCH_MAP.zoom}
      heightPx={SEARCH_MAP.heightPx}
      markers={markers}
      fitToMarkers
      ariaLabel={m.sp_map_label()}
    />
  );
}
