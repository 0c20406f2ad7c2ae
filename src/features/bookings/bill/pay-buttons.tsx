import type { Id } from "@convex/_generated/dataModel";
import { formatPaisa } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

/**
 * How the customer pays a final, unpaid bill: cash to the professional, or a wallet. The eSewa and
 * Khalti buttons belong here, beside the cash note; they pay `totalPaisa`, which the server checks
 * again against the stored lines (model/ledger.ts recordPayment).
 */
export function PayButtons({ totalPaisa }: { bookingId: Id<"bookings">; totalPaisa: number }) {
  return (
    <div className="mt-3 rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <h5 className="font-medium text-slate-900">{m.pay_title()}</h5>
      <p className="mt-1 text-slate-700">{m.pay_cash_note({ amount: formatPaisa(totalPaisa) })}</p>
    </div>
  );
}
