/**
 * A visitor's booking survives login and sign-up: Book sends them to /login?returnTo=<the page with
 * ?book=<professional>>, and that page reopens the booking dialog once they are a customer.
 */
import type { CitySlug } from "@convex/constants";
import type { WorkingHours } from "@convex/rules/schedule";

export const BOOK_PARAM = "book";
export const RETURN_PARAM = "returnTo";

/** What the Book button and the booking dialog need to know about a professional. */
export type BookTarget = {
  _id: string;
  name: string;
  city: CitySlug;
  cityName: string;
  specialtyName: string;
  verified: boolean;
  available: boolean;
  workingHours: WorkingHours | null;
};

/** The Book control a page shows beside a professional (the bookings feature provides it). */
export type BookActionProps = { professional: BookTarget; category: string };

/** `path` (pathname + search) with ?book=<professionalId> set. */
export function withBookIntent(path: string, professionalId: string): string {
  const url = new URL(path, "http://x");
  url.searchParams.set(BOOK_PARAM, professionalId);
  return `${url.pathname}${url.search}`;
}

/** A same-site path to return to, or null for anything else (an open redirect otherwise). */
export function safeReturnTo(value: string | null): string | null {
  if (value === null || !value.startsWith("/") || value.startsWith("//") || value.includes("\\"))
    return null;
  return value;
}
