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
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

/** Asks before declining a request, with an optional reason the customer reads (bookings:reject). */
export function RejectDialog({
  bookingId,
  customer,
  onClose,
}: {
  bookingId: Id<"bookings">;
  customer: string;
  onClose: () => void;
}) {
  const reject = useMutation(api.bookings.reject);
  const [reason, setReason] = useState("");
  const { busy, run } = useBusyCall({ staysBusy: true });

  async function confirm() {
    const trimmed = reason.trim();
    const done = await run(
      () => reject({ bookingId, ...(trimmed ? { reason: trimmed } : {}) }),
      m.step_failed(),
    );
    if (!done) return;
    toast.success(m.reject_done());
    onClose();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={m.reject_title()}
      description={m.reject_text({ name: customer })}
    >
      <Form className="mt-4 space-y-4" onSubmit={confirm}>
        <TextareaField
          label={m.reject_reason()}
          rows={3}
          maxLength={BOOKING_FIELDS.reason.max}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {m.reject_keep()}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? m.step_busy() : m.reject_confirm()}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
