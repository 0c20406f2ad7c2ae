import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { noShowOpensAt } from "@convex/rules/noShow";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { paths } from "@/lib/paths";
import { localCategoryName } from "@/i18n/categories";
import { formatNumber } from "@/lib/numbers";
import { useNow } from "@/lib/use-now";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

/**
 * The customer's "the professional did not come" (rules/noShow.ts): offered once the professional is
 * the admin's setting late and has not arrived; it closes the booking and gives them a strike.
 */
export function NoShowAction({
  bookingId,
  scheduledFor,
  name,
}: {
  bookingId: Id<"bookings">;
  scheduledFor: number;
  name: string;
}) {
  const settings = useQuery(api.settings.get);
  const now = useNow();
  const markNoShow = useMutation(api.bookings.markNoShow);
  const [asking, setAsking] = useState(false);
  const { busy, run } = useBusyCall();
  if (settings === undefined) return null;
  const minutes = settings.noShowAfterMinutes;
  if (now < noShowOpensAt(scheduledFor, minutes)) return null;

  async function confirm() {
    if (await run(() => markNoShow({ bookingId }), m.no_show_failed())) setAsking(false);
  }

  return (
    <div className="mt-3 rounded-xl bg-amber-50 p-3">
      <p className="text-sm text-slate-800">
        {m.no_show_hint({ name, minutes: formatNumber(minutes) })}
      </p>
      <Button className="mt-2" variant="danger" onClick={() => setAsking(true)}>
        {m.no_show_mark()}
      </Button>
      {asking && (
        <Dialog
          open
          onClose={() => setAsking(false)}
          title={m.no_show_title()}
          description={m.no_show_text({ name })}
        >
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setAsking(false)}>
              {m.no_show_keep()}
            </Button>
            <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
              {busy ? m.step_busy() : m.no_show_confirm()}
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/**
 * After a no-show, one tap sends the same job out as "nearest available now" from the booking's pin,
 * to anyone but the professional who did not come (dispatch:redispatch); the search page follows it.
 */
export function RedispatchNow({
  booking,
}: {
  booking: {
    _id: Id<"bookings">;
    city: string;
    services: { category: string; categoryName: string }[];
  };
}) {
  const redispatch = useMutation(api.dispatch.redispatch);
  const navigate = useNavigate();
  const { busy, run } = useBusyCall({ staysBusy: true });
  const service = booking.services[0];
  if (!service) return null;

  async function go() {
    await run(async () => {
      const requestId = await redispatch({ bookingId: booking._id });
      void navigate(
        paths.nearestNow(service.categoryName, service.category, booking.city, requestId),
      );
    }, m.no_show_redispatch_failed());
  }

  return (
    <Button className="mt-3 w-full sm:w-auto" onClick={() => void go()} disabled={busy}>
      {busy
        ? m.step_busy()
        : m.no_show_redispatch({
            service: localCategoryName(service.category, service.categoryName),
          })}
    </Button>
  );
}
