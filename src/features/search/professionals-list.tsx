import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { CITIES, SpecialtySlug } from "@convex/constants";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { StarRating } from "@/components/ui/star-rating";
import { EmptyState, LoadingState } from "@/components/ui/states";
import type { BookableProfessional } from "@/features/search/booking-dialog";
import { formatNrs } from "@/lib/format";
import { paths } from "@/lib/paths";
import { GEOLOCATION_OPTIONS } from "@/lib/constants";

// The form (zod, TanStack Form) loads when a customer is about to book, not with the search page.
const loadBookingDialog = () => import("@/features/search/booking-dialog");
const BookingDialog = lazy(() => loadBookingDialog().then((m) => ({ default: m.BookingDialog })));

type Props = { specialty: SpecialtySlug; city: (typeof CITIES)[number]; category: string };

export function ProfessionalsList({ specialty, city, category }: Props) {
  const navigate = useNavigate();
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const [near, setNear] = useState<{ lat: number; lng: number } | null>(null);
  const [locating, setLocating] = useState(false);
  const pros = useQuery(api.professionals.search, {
    specialty,
    city: city.slug,
    ...(near ? { near } : {}),
  });
  const [booking, setBooking] = useState<BookableProfessional | null>(null);

  function locate() {
    if (!("geolocation" in navigator)) {
      toast.error("Your browser cannot share its location.");
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setNear({ lat: pos.coords.latitude, lng: pos.coords.longitude });
        setLocating(false);
      },
      () => {
        toast.error("Could not read your location.");
        setLocating(false);
      },
      GEOLOCATION_OPTIONS,
    );
  }

  function book(pro: BookableProfessional) {
    if (!isAuthenticated || viewer === null) {
      toast.info("Please log in as a customer to book a professional.");
      navigate(paths.login());
      return;
    }
    if (viewer && viewer.role !== "customer") {
      toast.error("Only customer accounts can book professionals.");
      return;
    }
    setBooking(pro);
  }

  return (
    <div className="mt-3">
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <span>Verified and available professionals first.</span>
        {!near && (
          <Button variant="secondary" size="sm" onClick={locate} disabled={locating}>
            {locating ? "Locating…" : "Show distance from me"}
          </Button>
        )}
      </div>
      {pros === undefined ? (
        <LoadingState label="Finding professionals…" />
      ) : pros.length === 0 ? (
        <div className="mt-3">
          <EmptyState title={`No professionals in ${city.name} for this service yet.`}>
            Try another city, or check back soon.
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-3 grid gap-3 md:grid-cols-2">
          {pros.map((p) => (
            <li
              key={p._id}
              className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
            >
              <Avatar src={p.photoUrl} name={p.name} size={56} />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="truncate font-semibold">{p.name}</h3>
                  {p.verified ? (
                    <Badge tone="success">✓ Verified</Badge>
                  ) : (
                    <Badge>Unverified</Badge>
                  )}
                  {!p.available && <Badge tone="warning">Unavailable</Badge>}
                </div>
                <p className="text-sm text-slate-600">
                  {p.specialtyName} · {p.cityName}
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
                  <StarRating value={p.rating.average} />
                  <span>
                    {p.rating.count
                      ? `${p.rating.average.toFixed(1)} (${p.rating.count})`
                      : "No reviews yet"}
                  </span>
                </p>
                <p className="mt-1 text-sm text-slate-700">
                  {p.priceFrom !== undefined && p.priceFrom !== null && (
                    <span className="font-medium">From {formatNrs(p.priceFrom)}</span>
                  )}
                  {typeof p.distanceKm === "number" && (
                    <span className="text-slate-500"> · {p.distanceKm.toFixed(1)} km away</span>
                  )}
                </p>
              </div>
              <div className="self-center">
                <Button
                  size="sm"
                  disabled={!p.available}
                  onPointerEnter={() => void loadBookingDialog()}
                  onFocus={() => void loadBookingDialog()}
                  onClick={() =>
                    book({
                      _id: p._id as Id<"professionals">,
                      name: p.name,
                      city: p.city,
                      cityName: p.cityName,
                      specialtyName: p.specialtyName,
                    })
                  }
                  aria-label={`Book ${p.name}`}
                >
                  Book
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {booking && viewer && (
        <Suspense fallback={<LoadingState label="Opening the booking form…" />}>
          <BookingDialog
            professional={booking}
            category={category}
            defaultAddress={viewer.address}
            onClose={() => setBooking(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
