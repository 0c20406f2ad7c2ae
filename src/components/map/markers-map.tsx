import "leaflet/dist/leaflet.css";
import L, { type LatLngExpression, type LatLngTuple } from "leaflet";
import iconUrl from "leaflet/dist/images/marker-icon.png";
import iconRetinaUrl from "leaflet/dist/images/marker-icon-2x.png";
import shadowUrl from "leaflet/dist/images/marker-shadow.png";
import { useEffect, useRef, useState, type ReactNode } from "react";
import {
  Circle,
  MapContainer,
  Marker,
  Popup,
  TileLayer,
  useMap,
  useMapEvents,
  ZoomControl,
} from "react-leaflet";
import { MAP_TILES } from "@/lib/map-constants";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";
import { useLocale } from "@/i18n/locale";

/** Leaflet's default icon guesses its image URLs from CSS, which breaks under a bundler: pass them explicitly. */
const markerIcon = L.icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  tooltipAnchor: [16, -28],
  shadowSize: [41, 41],
});

/** Rounded positions are shown with a circle of about this radius (the server rounds to ~500 m). */
const APPROXIMATE_RADIUS_M = 500;

export type MapMarker = {
  id: string;
  lat: number;
  lng: number;
  label: string;
  /** false when the server rounded the position; the marker then gets an "approximate" circle. Default true. */
  exact?: boolean;
  /** Shown in the popup under the label, e.g. a link to the professional's profile. */
  action?: ReactNode;
};

type MarkersMapProps = {
  center: LatLngTuple;
  zoom: number;
  heightPx: number;
  markers: MapMarker[];
  /** Fit the view to the markers whenever a marker appears or disappears (not when one merely moves). */
  fitToMarkers?: boolean;
  /** Accessible name of the map region. */
  ariaLabel?: string;
  className?: string;
  /** Called with the position the user tapped or clicked (a pin picker). */
  onPick?: (at: { lat: number; lng: number }) => void;
};

/**
 * A presentational Leaflet map: props in, markers out. Markers are keyed by id, so a changed position moves
 * the existing marker in place; the map itself is never remounted.
 */
export function MarkersMap({
  center,
  zoom,
  heightPx,
  markers,
  fitToMarkers = false,
  ariaLabel,
  className,
  onPick,
}: MarkersMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  // Leaflet's controls take their titles once: made again, not re-rendered, on a language switch.
  const locale = useLocale();
  return (
    <div
      className={`relative w-full ${className ?? ""}`}
      role="region"
      aria-label={ariaLabel ?? m.map_label()}
    >
      <MapContainer
        center={center}
        zoom={zoom}
        // Leaflet's stylesheet sets Helvetica/Arial, which have no Devanagari: Nepali popups showed boxes.
        style={{ height: heightPx, width: "100%", fontFamily: "inherit" }}
        className="z-0 rounded-lg bg-slate-200"
        scrollWheelZoom={false}
        zoomControl={false}
      >
        <ZoomControl key={locale} zoomInTitle={m.map_zoom_in()} zoomOutTitle={m.map_zoom_out()} />
        <LeafletCredit title={m.map_leaflet_title()} />
        {/* An empty tile URL (offline tests) means markers on a plain background. */}
        {MAP_TILES.url && (
          <TileLayer
            url={MAP_TILES.url}
            attribution={MAP_TILES.attribution}
            eventHandlers={{
              tileerror: () => setTilesFailed(true),
              tileload: () => setTilesFailed(false),
            }}
          />
        )}
        <FollowCenter center={center} />
        <FitContainer />
        {fitToMarkers && <FitToMarkers markers={markers} zoom={zoom} />}
        {onPick && <PickOnClick onPick={onPick} />}
        {markers.map((marker) => (
          <PositionMarker key={marker.id} marker={marker} />
        ))}
      </MapContainer>
      {tilesFailed && (
        <p className="pointer-events-none absolute top-2 right-2 left-14 z-[500] rounded bg-white/90 px-2 py-1 text-xs text-slate-700 shadow">
          {m.map_tiles_failed()}
        </p>
      )}
    </div>
  );
}

function PositionMarker({ marker }: { marker: MapMarker }) {
  const position: LatLngExpression = [marker.lat, marker.lng];
  const exact = marker.exact ?? true;
  return (
    <>
      {!exact && (
        <Circle
          center={position}
          radius={APPROXIMATE_RADIUS_M}
          pathOptions={{ color: "#0d9488", weight: 1, dashArray: "4 4", fillOpacity: 0.08 }}
        />
      )}
      <Marker position={position} icon={markerIcon} title={marker.label} alt={marker.label}>
        <Popup>
          {marker.label}
          {!exact && (
            <span className="block text-xs text-slate-500">
              {m.map_approximate({ metres: formatNumber(APPROXIMATE_RADIUS_M) })}
            </span>
          )}
          {marker.action && <span className="mt-1 block">{marker.action}</span>}
        </Popup>
      </Marker>
    </>
  );
}

/** Leaflet's own credit, its link title in the reader's language. */
function LeafletCredit({ title }: { title: string }) {
  const map = useMap();
  useEffect(() => {
    const link = document.createElement("a");
    link.href = "https://leafletjs.com";
    link.title = title;
    link.textContent = "Leaflet";
    map.attributionControl?.setPrefix(link.outerHTML);
  }, [map, title]);
  return null;
}

/**
 * Leaflet measures its container once: opened inside a dialog that is still animating in, it measured
 * it wrong and put the centre (and a pin on it) at the corner. Measure again whenever the size changes.
 */
function FitContainer() {
  const map = useMap();
  useEffect(() => {
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function PickOnClick({ onPick }: { onPick: (at: { lat: number; lng: number }) => void }) {
  useMapEvents({ click: (e) => onPick({ lat: e.latlng.lat, lng: e.latlng.lng }) });
  return null;
}

/** MapContainer reads `center` only on mount; pan when the caller passes a different one. */
function FollowCenter({ center }: { center: LatLngTuple }) {
  const map = useMap();
  const [lat, lng] = center;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    map.panTo([lat, lng]);
  }, [map, lat, lng]);
  return null;
}

function FitToMarkers({ markers, zoom }: { markers: MapMarker[]; zoom: number }) {
  const map = useMap();
  const idsKey = markers
    .map((marker) => marker.id)
    .sort()
    .join("|");
  const latest = useRef(markers);
  useEffect(() => {
    latest.current = markers;
  });
  useEffect(() => {
    const current = latest.current;
    if (current.length === 0) return;
    if (current.length === 1) {
      map.setView([current[0].lat, current[0].lng], zoom);
      return;
    }
    map.fitBounds(L.latLngBounds(current.map((c) => [c.lat, c.lng] as LatLngTuple)), {
      padding: [32, 32],
      maxZoom: zoom,
    });
  }, [map, idsKey, zoom]);
  return null;
}
