import { Suspense, useState, type ReactNode } from "react";
import { LazyMarkersMap } from "@/components/map/lazy-markers-map";
import type { Pin } from "@convex/rules/pin";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { bookingStatusBadge, type BookingAudience } from "@/components/booking-status";
import { formatDateTime, withCity } from "@/lib/format";
import { formatNrs } from "@/lib/rupees";
import { useLinkedBooking } from "@/lib/linked-booking";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localServiceName } from "@/i18n/services";
import { formatDigits } from "@/lib/numbers";
import { getLocale } from "@/i18n/paraglide/runtime";
import { reasonText } from "@convex/rules/notificationText";

export type CardBooking = {
  _id: string;
  status: BookingStatus;
  services: { name: string }[];
  /** null to a professional while the booking is not active (model/bookings.ts view). */
  address: string | null;
  pin?: Pin | null;
  cityName: string;
  scheduledFor: number;
  note: string | null;
  price: number;
  cancelReason: string | null;
  cancelledBy?: "customer" | "professional" | null;
};

/** Who called a booking off, as the card's reader knows them. */
function cancelledByLabel(
  by: "customer" | "professional" | null | undefined,
  audience: "customer" | "professional",
): string {
  if (!by) return m.card_cancelled_by_gharsewa(); // an admin, for GharSewa
  if (by === audience) return m.card_cancelled_by_you();
  return by === "customer" ? m.card_cancelled_by_customer() : m.card_cancelled_by_professional();
}

/** The other party as the card shows them: the professional to a customer, the customer to a professional. */
export type Counterpart = {
  name: string;
  photoUrl: string | null;
  detail?: string | null;
  phone: string | null;
};

/** One booking, as either side sees it: who, what, when, where, price, note, reason, and what comes next. */
export function BookingCard({
  booking: b,
  audience,
  label,
  counterpart,
  highlighted = false,
  children,
}: {
  booking: CardBooking;
  audience: Exclude<BookingAudience, "admin">;
  label: string;
  counterpart: Counterpart;
  highlighted?: boolean;
  children?: ReactNode;
}) {
  const badge = bookingStatusBadge(b.status, audience);
  // a notification's tap opens the page at this booking (?booking=<id>)
  const { linked, scrollTarget } = useLinkedBooking(b._id);
  return (
    <li
      ref={scrollTarget}
      aria-label={label}
      aria-current={linked || undefined}
      className={`rounded-2xl border p-4 shadow-sm transition-colors ${
        highlighted || linked
          ? "border-sky-400 bg-sky-50 ring-2 ring-sky-300"
          : "border-slate-200 bg-white"
      }`}
    >
      <div className="flex items-start gap-3">
        <Avatar src={counterpart.photoUrl} name={counterpart.name} size={48} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-semibold text-slate-900">
              {b.services.map((s) => localServiceName(s.name)).join(m.list_separator())}
            </h3>
            <div className="flex items-center gap-1">
              {highlighted && <Badge tone="warning">{m.card_new()}</Badge>}
              <Badge tone={badge.tone}>
                <span className="sr-only">{m.card_status()} </span>
                {badge.label}
              </Badge>
            </div>
          </div>
          <p className="text-sm text-slate-600">
            {counterpart.name}
            {counterpart.detail && ` · ${counterpart.detail}`}
            {counterpart.phone && (
              <>
                {" · "}
                <a href={`tel:${counterpart.phone}`} className="text-brand-700 underline">
                  {formatDigits(counterpart.phone)}
                </a>
              </>
            )}
          </p>
        </div>
      </div>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-500">{m.card_when()}</dt>
        <dd>
          <time dateTime={new Date(b.scheduledFor).toISOString()}>
            {formatDateTime(b.scheduledFor)}
          </time>
        </dd>
        <dt className="text-slate-500">{m.card_where()}</dt>
        <dd>
          {b.address === null ? (
            <>
              {localCityName(b.cityName)}
              <span className="block text-xs text-slate-500">{m.card_address_hidden()}</span>
            </>
          ) : (
            withCity(b.address, localCityName(b.cityName))
          )}
          {b.pin && <PinOnMap pin={b.pin} />}
        </dd>
        <dt className="text-slate-500">{m.card_price()}</dt>
        <dd className="font-medium">{formatNrs(b.price)}</dd>
        {b.note && (
          <>
            <dt className="text-slate-500">{m.label_note()}</dt>
            <dd>{b.note}</dd>
          </>
        )}
        {b.cancelReason && (
          <>
            <dt className="text-slate-500">
              {b.status === "cancelled"
                ? cancelledByLabel(b.cancelledBy, audience)
                : m.label_reason()}
            </dt>
            <dd>{reasonText(getLocale(), b.cancelReason)}</dd>
          </>
        )}
      </dl>
      {children}
    </li>
  );
}

/** The booking's map pin, on a map opened on demand. */
function PinOnMap({ pin }: { pin: Pin }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-1">
      <Button size="sm" variant="secondary" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? m.pin_hide() : m.pin_show()}
      </Button>
      {open && (
        <Suspense fallback={<LoadingState label={m.state_loading_map()} />}>
          <div className="mt-2">
            <LazyMarkersMap
              center={[pin.lat, pin.lng]}
              zoom={16}
              heightPx={220}
              markers={[{ id: "pin", lat: pin.lat, lng: pin.lng, label: m.pin_marker() }]}
              ariaLabel={m.pin_marker()}
            />
          </div>
        </Suspense>
      )}
    </div>
  );
}
