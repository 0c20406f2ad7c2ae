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

export type Canceller = "customer" | "professional";

const { min, max } = BOOKING_FIELDS.reason;

/** What each side reads: a customer cancels a booking, a professional calls off a job. */
const WORDS: Record<
  Canceller,
  {
    title: string;
    description: (other: string) => string;
    keep: string;
    confirm: string;
    tooShort: string;
    done: string;
    failed: string;
  }
> = {
  customer: {
    title: "Cancel this booking?",
    description: (other) => `${other} will be told your reason.`,
    keep: "Keep booking",
    confirm: "Cancel booking",
    tooShort: `Please tell the professional why (at least ${min} characters).`,
    done: "Booking cancelled.",
    failed: "The booking could not be cancelled.",
  },
  professional: {
    title: "Cancel this job?",
    description: (other) => `${other} will be notified with your reason.`,
    keep: "Keep the job",
    confirm: "Cancel job",
    tooShort: `Please tell the customer why (at least ${min} characters).`,
    done: "The job was cancelled and the customer was told.",
    failed: "Could not cancel the job. Please try again.",
  },
};

/** The label of the button that opens the dialog. */
export const cancelLabel = (by: Canceller) => WORDS[by].confirm;

/** Asks for the reason the other party will read, then cancels (bookings:cancel). */
export function CancelDialog({
  bookingId,
  by,
  otherParty,
  onClose,
}: {
  bookingId: Id<"bookings">;
  by: Canceller;
  otherParty: string;
  onClose: () => void;
}) {
  const words = WORDS[by];
  const cancel = useMutation(api.bookings.cancel);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (reason.trim().length < min) {
      setError(words.tooShort);
      return;
    }
    setBusy(true);
    try {
      await cancel({ bookingId, reason: reason.trim() });
      toast.success(words.done);
      onClose();
    } catch (e) {
      toast.error(errorMessage(e, words.failed));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} title={words.title} description={words.description(otherParty)}>
      <Form className="mt-4 space-y-4" onSubmit={confirm}>
        <TextareaField
          label="Reason"
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
            {words.keep}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? "Cancelling…" : words.confirm}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
