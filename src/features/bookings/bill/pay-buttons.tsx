import type { Id } from "@convex/_generated/dataModel";
import { formatPaisa } from "@/lib/rupees";
import { m } from "@/i18n/paraglide/messages";
import { WalletButtons } from "@/features/bookings/wallets/wallet-buttons";

/**
 * How the customer pays a final, unpaid bill: cash to the professional, or a wallet. The eSewa and
 * Khalti buttons belong here, beside the cash note (wallets/wallet-buttons.tsx); the server takes
 * the stored bill's total, never an amount from here.
 */
export function PayButtons({
  bookingId,
  totalPaisa,
}: {
  bookingId: Id<"bookings">;
  totalPaisa: number;
}) {
  return (
    <div className="mt-3 rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <h5 className="font-medium text-slate-900">{m.pay_title()}</h5>
      <p className="mt-1 text-slate-700">{m.pay_cash_note({ amount: formatPaisa(totalPaisa) })}</p>
      <WalletButtons bookingId={bookingId} />
    </div>
  );
}
