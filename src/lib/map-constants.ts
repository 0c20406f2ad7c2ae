/** Spec §9's constants for maps and positions (apart from lib/constants: no page's first paint needs them). */
export const SEARCH_MAP = { heightPx: 500, zoom: 15, center: [28.05, 81.6167] as [number, number] };
export const DASHBOARD_MAP = { heightPx: 500, zoom: 18 };
/** The admin's live map of who is online: all of Nepal, or one city when the grid is filtered to it. */
export const ADMIN_MAP = {
  heightPx: 360,
  zoom: 7,
  cityZoom: 13,
  center: [28.3, 84.1] as [number, number],
};
export const GEOLOCATION_OPTIONS: PositionOptions = {
  enableHighAccuracy: true,
  maximumAge: 0,
  timeout: 5000,
};

/** Map tiles: OpenStreetMap unless VITE_MAP_TILE_URL points elsewhere (e.g. a self-hosted tile server). */
export const MAP_TILES = {
  url: import.meta.env.VITE_MAP_TILE_URL ?? "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution:
    import.meta.env.VITE_MAP_TILE_ATTRIBUTION ??
    '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};
