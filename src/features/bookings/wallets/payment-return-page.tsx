import { useMutation, useQuery } from "convex/react";
import { useEffect, useRef, useState } from "react";
import { useLocation, useParams, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { isSettled, type AttemptState } from "@convex/rules/wallets";
import { buttonClasses } from "@/components/ui/button";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { m } from "@/i18n/paraglide/messages";
import { errorMessage } from "@/lib/errors";
import { formatNrs } from "@/lib/rupees";
import { paths } from "@/lib/paths";
import { AttemptOutcome } from "./attempt-outcome";
import { WalletButtons } from "./wallet-buttons";

/**
 * Where eSewa (`/pay/esewa/<uuid>` with `?data=`, or `/pay/esewa/<uuid>/failed`) and Khalti
 * (`/pay/khalti?pidx=`) send the customer back: the return is reported once, then the payment's
 * outcome shows live as the server hears from the gateway, with a retry unless it is paid.
 */
export default function PaymentReturnPage() {
  const { transactionUuid } = useParams();
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const esewaReturned = useMutation(api.wallets.esewaReturned);
  const khaltiReturned = useMutation(api.wallets.khaltiReturned);
  const [attemptId, setAttemptId] = useState<Id<"paymentAttempts"> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reported = useRef(false);

  useEffect(() => {
    if (reported.current) return;
    reported.current = true;
    const pidx = search.get("pidx");
    const data = search.get("data");
    const report =
      transactionUuid !== undefined
        ? esewaReturned({
            transactionUuid,
            ...(pathname.endsWith("/failed") || data === null ? {} : { data }),
          })
        : khaltiReturned({ pidx: pidx ?? "" });
    report.then(setAttemptId, (e: unknown) => setError(errorMessage(e, m.pay_return_unknown())));
  }, [transactionUuid, search, pathname, esewaReturned, khaltiReturned]);

  return (
    <main className="mx-auto w-full max-w-lg px-4 py-8">
      <h1 className="text-2xl font-bold text-slate-900">{m.pay_return_title()}</h1>
      <div className="mt-4">
        {error ? (
          <ErrorState title={error}>
            <Link to={paths.customerBookings()} className="underline">
              {m.pay_back_to_bookings()}
            </Link>
          </ErrorState>
        ) : attemptId === null ? (
          <LoadingState label={m.pay_return_reporting()} />
        ) : (
          <Outcome attemptId={attemptId} />
        )}
      </div>
    </main>
  );
}

function Outcome({ attemptId }: { attemptId: Id<"paymentAttempts"> }) {
  const attempt = useQuery(api.wallets.attempt, { attemptId });
  if (attempt === undefined) return <LoadingState />;
  if (attempt === null) return <ErrorState title={m.pay_return_unknown()} />;
  const settled = isSettled(attempt.state as AttemptState);
  return (
    <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-slate-700">
        {m.pay_return_amount({ amount: formatNrs(attempt.amountPaisa / 100) })}
      </p>
      <AttemptOutcome attempt={attempt} />
      {attempt.state !== "paid" && (settled || attempt.problem === "unverified") && (
        <div>
          <p className="text-sm text-slate-600">{m.pay_retry_hint()}</p>
          <WalletButtons bookingId={attempt.bookingId} />
        </div>
      )}
      <Link
        to={paths.customerBooking(attempt.bookingId)}
        className={buttonClasses("secondary", "md", "w-full sm:w-auto")}
      >
        {m.pay_back_to_bookings()}
      </Link>
    </div>
  );
}
