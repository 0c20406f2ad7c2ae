/**
 * A booking's address is the street and ward; its city is a separate field. These rules keep the two
 * from disagreeing ("Lakeside-6, Pokhara" booked in Surkhet) and from repeating the city, without
 * refusing a street that carries a city's name ("Surkhet Road" is a Nepalgunj street): only a part of
 * the address that is a city's name by itself, maybe with its ward ("Pokhara-6"), says where it is.
 * The map pin carries the truth an address cannot.
 */
import { CITIES, type CitySlug } from "../constants";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const cityPattern = (name: string) => new RegExp(`(^|[^\\p{L}])${escape(name)}($|[^\\p{L}])`, "iu");
/** A whole part that is the city: "Pokhara", "pokhara-6", "Kathmandu 10". */
const cityPart = (name: string) => new RegExp(`^${escape(name)}(\\s*-?\\s*\\d{1,2})?$`, "iu");

const partsOf = (address: string) =>
  address
    .split(/[,\n;]/)
    .map((part) => part.trim())
    .filter(Boolean);

/** The listed cities an address names as whole words anywhere, street names included, in the order of CITIES. */
export function citiesNamedIn(address: string): CitySlug[] {
  return CITIES.filter((c) => cityPattern(c.name).test(address)).map((c) => c.slug);
}

/** The listed cities the address is in: the parts that are a city's name by itself. */
export function citiesOfAddress(address: string): CitySlug[] {
  const parts = partsOf(address);
  return CITIES.filter((c) => parts.some((part) => cityPart(c.name).test(part))).map((c) => c.slug);
}

/** The city the address says it is in, if it says one. */
export function cityOfAddress(address: string): CitySlug | undefined {
  return citiesOfAddress(address)[0];
}

/** A city other than `city` that the address says it is in, if any (never one inside a street's name). */
export function otherCityIn(address: string, city: CitySlug): CitySlug | undefined {
  return citiesOfAddress(address).find((c) => c !== city);
}

/** The address without the parts that name its city, e.g. a profile address as a booking's street. */
export function streetOnly(address: string): string {
  return partsOf(address)
    .filter((part) => !CITIES.some((c) => cityPart(c.name).test(part)))
    .join(", ");
}

/**
 * What a booking in `city` proposes from the customer's profile address: its street when the
 * address is in that city, otherwise nothing (a Kathmandu home is no address in Nepalgunj).
 */
export function addressToPropose(profileAddress: string, city: CitySlug): string {
  return cityOfAddress(profileAddress) === city ? streetOnly(profileAddress) : "";
}
