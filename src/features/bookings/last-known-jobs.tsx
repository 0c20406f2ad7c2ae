import { useAuthToken } from "@convex-dev/auth/react";
import { useEffect } from "react";
import { LoadingState } from "@/components/ui/states";
import { BookingCard, type CardBooking } from "@/features/bookings/booking-card";
import { workQueue } from "@/features/bookings/work-queue";
import { OPEN_STATUSES } from "@convex/rules/bookingLifecycle";
import { formatDateTime } from "@/lib/format";
import { userOfToken } from "@/lib/auth-token";
import { lastKnownJobs, rememberJobs } from "@/lib/last-known-jobs";
import { m } from "@/i18n/paraglide/messages";

/** What a job keeps on the device: the card, and how to reach the customer. */
type KeptJob = CardBooking & { customer: { name: string; phone: string | null } };

/**
 * Keeps the open requests and jobs of a loaded list on this device (lib/last-known-jobs.ts) each time
 * the live list changes.
 */
export function useRememberJobs(jobs: readonly KeptJob[], loaded: boolean) {
  const userId = userOfToken(useAuthToken());
  useEffect(() => {
    if (!loaded || userId === null) return;
    const open = jobs.filter((b) => OPEN_STATUSES.includes(b.status));
    rememberJobs<KeptJob>(userId, open.map(keep));
  }, [jobs, loaded, userId]);
}

const keep = (b: KeptJob): KeptJob => ({
  _id: b._id,
  status: b.status,
  services: b.services.map(({ name }) => ({ name })),
  address: b.address,
  pin: b.pin ?? null,
  cityName: b.cityName,
  scheduledFor: b.scheduledFor,
  note: b.note,
  price: b.price,
  cancelReason: b.cancelReason,
  customer: { name: b.customer.name, phone: b.customer.phone },
});

/**
 * The dashboard opened without a network: the requests and jobs as last seen here, read-only, or a
 * wait for the network when this device kept none.
 */
export function LastKnownJobs() {
  // only the copy of the account whose session this device keeps
  const userId = userOfToken(useAuthToken());
  const kept = userId === null ? null : lastKnownJobs<KeptJob>(userId);
  if (kept === null) return <LoadingState label={m.dash_offline()} />;
  return (
    <main className="mx-auto w-full max-w-6xl px-3 py-4 sm:px-4 sm:py-6">
      <h1 className="text-2xl font-semibold text-slate-900">{m.dash_title()}</h1>
      <p role="status" className="mt-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
        {m.dash_last_known({ time: formatDateTime(kept.savedAt) })}
      </p>
      <section aria-labelledby="last-known-heading" className="mt-4">
        <h2 id="last-known-heading" className="text-lg font-semibold text-slate-900">
          {m.label_bookings()}
        </h2>
        {kept.jobs.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{m.dash_last_known_none()}</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {workQueue(kept.jobs).map(({ booking: b }) => (
              <BookingCard
                key={b._id}
                booking={b}
                audience="professional"
                label={m.pro_card_label({ name: b.customer.name })}
                counterpart={{ name: b.customer.name, phone: b.customer.phone, photoUrl: null }}
              />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
