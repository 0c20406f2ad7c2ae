/**
 * A booking's address is the street and ward; its city is a separate field. These rules keep the two
 * from disagreeing ("Lakeside-6, Pokhara" booked in Surkhet) and from repeating the city.
 */
import { CITIES, type CitySlug } from "../constants";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const cityPattern = (name: string) => new RegExp(`(^|[^\\p{L}])${escape(name)}($|[^\\p{L}])`, "iu");

/** The listed cities an address names, in the order of CITIES. */
export function citiesNamedIn(address: string): CitySlug[] {
  return CITIES.filter((c) => cityPattern(c.name).test(address)).map((c) => c.slug);
}

/** A city other than `city` that the address names, if any. */
export function otherCityIn(address: string, city: CitySlug): CitySlug | undefined {
  return citiesNamedIn(address).find((c) => c !== city);
}

/** The address without any listed city names (and the commas they leave), e.g. a profile address as a booking's street. */
export function streetOnly(address: string): string {
  let street = address;
  for (const c of CITIES) street = street.replace(new RegExp(escape(c.name), "giu"), "");
  return street
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(", ");
}

/** "Baneshwor-10, Kathmandu": the street with its city once. */
export function fullAddress(street: string, cityName: string): string {
  return cityPattern(cityName).test(street) ? street : `${street}, ${cityName}`;
}
