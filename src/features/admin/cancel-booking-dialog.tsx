import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/inputs";
import { Form } from "@/components/form";
import { errorMessage } from "@/lib/errors";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

const { min, max } = BOOKING_FIELDS.reason;

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
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (reason.trim().length < min) {
      setError(m.cancel_admin_short({ min: formatNumber(min) }));
      return;
    }
    setBusy(true);
    try {
      await cancel({ bookingId, reason: reason.trim() });
      toast.success(m.cancel_admin_done());
      onClose();
    } catch (e) {
      toast.error(errorMessage(e, m.cancel_pro_failed()));
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={m.cancel_admin_title()}
      description={m.cancel_admin_text()}
    >
      <Form className="mt-4 space-y-4" onSubmit={confirm}>
        <TextareaField
          label={m.cancel_reason()}
          required
          rows={3}
          maxLength={max}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {m.cancel_admin_keep()}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? m.step_busy() : m.cancel_admin_confirm()}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
