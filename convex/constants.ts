/*
 * The shared vocabulary as plain values, without convex/values: the web app imports these, and
 * validators.ts builds its validators from them.
 */

/** The interface languages: English and Nepali (a user's choice is kept in their profile). */
export const LOCALES = ["en", "ne-NP"] as const;
export type Locale = (typeof LOCALES)[number];

/** The six cities of spec §9, by canonical slug. */
export const CITIES = [
  { slug: "nepalgunj", name: "Nepalgunj", nameNe: "नेपालगन्ज", lat: 28.05, lng: 81.6167 },
  { slug: "kathmandu", name: "Kathmandu", nameNe: "काठमाडौं", lat: 27.7172, lng: 85.324 },
  { slug: "pokhara", name: "Pokhara", nameNe: "पोखरा", lat: 28.2096, lng: 83.9856 },
  { slug: "dhangadi", name: "Dhangadi", nameNe: "धनगढी", lat: 28.6833, lng: 80.6 },
  { slug: "surkhet", name: "Surkhet", nameNe: "सुर्खेत", lat: 28.6, lng: 81.6333 },
  { slug: "mahendranagar", name: "Mahendranagar", nameNe: "महेन्द्रनगर", lat: 28.9639, lng: 80.1778 },
] as const;
export type CitySlug = (typeof CITIES)[number]["slug"];

/** A city's display name from its slug (the slug itself for one no longer listed). */
export function cityName(slug: string): string {
  return CITIES.find((c) => c.slug === slug)?.name ?? slug;
}

/** The 14 specialties of spec §3, by canonical slug; `aliases` keeps the spec's legacy spellings working. */
export const SPECIALTIES = [
  { slug: "electrician", name: "Electrician", category: "electrical", aliases: ["Electrician"] },
  { slug: "plumber", name: "Plumber", category: "plumbing", aliases: ["Plumber"] },
  {
    slug: "carpenter",
    name: "Carpenter",
    category: "carpentry",
    aliases: ["Carpenter", "Carpentry"],
  },
  {
    slug: "solar-technician",
    name: "Solar Technician",
    category: "solar",
    aliases: ["Solar-Technician", "Solar Technician"],
  },
  {
    slug: "water-purifier",
    name: "Water Purifier",
    category: "water-purifier",
    aliases: ["Water-Purifier", "Water Purifier", "Water Purifier Service"],
  },
  { slug: "ac-fridge", name: "AC-Fridge", category: "ac-fridge", aliases: ["AC-Fridge"] },
  { slug: "painter", name: "Painter", category: "painting", aliases: ["Painter", "Painting"] },
  {
    slug: "cctv",
    name: "CCTV Camera Fitting",
    category: "cctv",
    aliases: ["CCTV-camera-fitting", "CCTV-Camera-Fitting"],
  },
  {
    slug: "tile-marble",
    name: "Tile-Marble Fitting",
    category: "tile-marble",
    aliases: ["Tile-Marble-fitting", "Tile-Marble Fitting", "Tile-Marble fitting"],
  },
  {
    slug: "home-appliance",
    name: "Home Appliance",
    category: "home-appliance",
    aliases: ["Home-Applicance", "Home Appliance", "Home Appliance Service"],
  },
  { slug: "jyotish", name: "Jyotish", category: "jyotish", aliases: ["Jyotish"] },
  { slug: "mason", name: "Mason", category: "mason", aliases: ["Manson", "Mason"] },
  {
    slug: "aluminium-upvc",
    name: "Aluminium-UPVC Decorator",
    category: "aluminium-upvc",
    aliases: ["Aluminium-UPVC-Decorator", "Aluminium-UPVC Decorator"],
  },
  { slug: "laundry", name: "Laundry", category: "laundry", aliases: ["Laundry"] },
] as const;
export type SpecialtySlug = (typeof SPECIALTIES)[number]["slug"];

/** Spec §9: the 14 service options of the landing search, in the spec's order (each resolves through the catalogue's aliases). */
export const LANDING_SERVICES = [
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

/** What the admin users list can be narrowed to: one role, or the suspended accounts. */
export const USER_FILTERS = ["customer", "professional", "admin", "suspended"] as const;
