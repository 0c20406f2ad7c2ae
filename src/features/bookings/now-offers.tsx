import { useEffect, useState } from "react";
import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { formatNrs } from "@/lib/rupees";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localServiceName } from "@/i18n/services";

/** How long a closed offer stays on the dashboard, so the professional sees what became of it. */
const CLOSED_SHOWN_MS = 5 * 60_000;

/** "Job nearby now" offers, live: accept or decline before the time runs out; taken ones say so. */
export function NowOffers() {
  const offers = useQuery(api.dispatch.myOffers);
  const now = useNow();
  const shown = (offers ?? []).filter(
    (o) => o.status === "offered" || now - o.offeredAt < CLOSED_SHOWN_MS,
  );
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="now-offers" className="mb-4 space-y-2">
      <h2 id="now-offers" className="text-lg font-bold">
        {m.offers_title()}
      </h2>
      <ul className="space-y-2">
        {shown.map((o) => (
          <Offer key={o._id} offer={o} now={now} />
        ))}
      </ul>
    </section>
  );
}

function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

type OfferRow = NonNullable<ReturnType<typeof useQuery<typeof api.dispatch.myOffers>>>[number];

function Offer({ offer: o, now }: { offer: OfferRow; now: number }) {
  const accept = useMutation(api.dispatch.accept);
  const decline = useMutation(api.dispatch.decline);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (call: (args: { offerId: Id<"dispatchOffers"> }) => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call({ offerId: o._id });
    } catch (e) {
      setError(errorMessage(e, m.book_failed()));
    } finally {
      setBusy(false);
    }
  };
  const seconds = Math.max(0, Math.ceil((o.expiresAt - now) / 1000));
  const services = o.services.map((s) => localServiceName(s.name)).join(m.list_separator());
  return (
    <li
      aria-label={m.offers_card({ services })}
      className={`rounded-2xl border p-4 ${o.status === "offered" ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-white"}`}
    >
      <p className="font-semibold">{services}</p>
      <p className="text-sm text-slate-700">
        {m.offers_where({
          city: localCityName(o.city),
          km: formatDigits((o.distanceMetres / 1000).toFixed(1)),
        })}{" "}
        · {formatNrs(o.price)}
      </p>
      {o.status === "offered" ? (
        <>
          <p className="mt-1 text-sm text-amber-900" role="timer">
            {m.offers_answer_within({ seconds: formatNumber(seconds) })}
          </p>
          <div className="mt-2 flex gap-2">
            <Button onClick={() => void act(accept)} disabled={busy}>
              {m.offers_accept()}
            </Button>
            <Button variant="secondary" onClick={() => void act(decline)} disabled={busy}>
              {m.offers_decline()}
            </Button>
          </div>
        </>
      ) : (
        <p className="mt-1 text-sm font-medium" role="status">
          {
            {
              accepted: m.offers_accepted(),
              declined: m.offers_declined(),
              timed_out: m.offers_timed_out(),
              taken: m.offers_taken(),
              withdrawn: m.offers_withdrawn(),
            }[o.status]
          }
        </p>
      )}
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}
