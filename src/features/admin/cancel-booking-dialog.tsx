import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { CancelReasonDialog } from "@/components/cancel-reason-dialog";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

/**
 * An admin cancels a booking for GharSewa (adminBookings:cancel) with the reason both parties read;
 * a paid booking then owes its customer a refund.
 */
export function CancelBookingDialog({
  bookingId,
  onClose,
}: {
  bookingId: Id<"bookings">;
  onClose: () => void;
}) {
  const cancel = useMutation(api.adminBookings.cancel);
  return (
    <CancelReasonDialog
      title={m.cancel_admin_title()}
      description={m.cancel_admin_text()}
      tooShort={m.cancel_admin_short({ min: formatNumber(BOOKING_FIELDS.reason.min) })}
      keepLabel={m.cancel_keep()}
      confirmLabel={m.cancel_confirm()}
      done={m.cancel_admin_done()}
      failed={m.cancel_pro_failed()}
      call={(reason) => cancel({ bookingId, reason })}
      onClose={onClose}
    />
  );
}
