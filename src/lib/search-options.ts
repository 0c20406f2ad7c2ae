/** Spec §9: the landing search's 14 service options and 6 locations, in the spec's order. */
export const SERVICE_OPTIONS = [
  "Electrician",
  "Plumber",
  "Carpenter",
  "Laundry",
  "AC-Fridge",
  "Jyotish",
  "Painting",
  "CCTV-Camera-Fitting",
  "Tile-Marble Fitting",
  "Aluminium-UPVC Decorator",
  "Home Appliance",
  "Water Purifier",
  "Mason",
  "Solar Technician",
] as const;

export const LOCATION_OPTIONS = [
  "Nepalgunj",
  "Kathmandu",
  "Pokhara",
  "Dhangadi",
  "Surkhet",
  "Mahendranagar",
] as const;

/** Where the header search sends a result when the visitor has not picked a city: the map's default centre. */
export const DEFAULT_LOCATION = "Nepalgunj";
