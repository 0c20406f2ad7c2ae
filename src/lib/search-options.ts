/** Where the header search sends a result when the visitor has not picked a city: the map's default centre. */
export const DEFAULT_LOCATION = "Nepalgunj";
