import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { m } from "@/i18n/paraglide/messages";
import { formatDateTime } from "@/lib/format";
import { formatPaisa } from "@/lib/rupees";

/** On a cancelled booking that was paid, live: the refund owed to its customer, then made. */
export function RefundNote({
  bookingId,
  audience,
}: {
  bookingId: Id<"bookings">;
  audience: "customer" | "professional";
}) {
  const bill = useQuery(api.bills.get, { bookingId });
  const refund = bill?.refund;
  if (!refund) return null;
  const amount = formatPaisa(refund.amountPaisa);
  const refunded = refund.state === "refunded";
  return (
    <p
      role="status"
      aria-label={m.refund_title()}
      className={`mt-3 rounded-lg p-2 text-sm ${refunded ? "bg-green-50 text-green-900" : "bg-amber-50 text-amber-900"}`}
    >
      {refunded
        ? m.refund_refunded({
            amount,
            reference: refund.reference ?? "",
            when: refund.refundedAt === null ? "" : formatDateTime(refund.refundedAt),
          })
        : audience === "customer"
          ? m.refund_due_customer({ amount })
          : m.refund_due_pro({ amount })}
    </p>
  );
}
