import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { stepsFor, type BookingStatus, type Step } from "@convex/rules/bookingLifecycle";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { CancelDialog, cancelLabel, type Canceller } from "@/features/bookings/cancel-dialog";

type DirectStep = Exclude<Step, "cancel">;

const LABELS: Record<DirectStep, { label: string; variant: "primary" | "danger" }> = {
  accept: { label: "Accept", variant: "primary" },
  reject: { label: "Reject", variant: "danger" },
  startTrip: { label: "Start trip", variant: "primary" },
  arrive: { label: "Arrived", variant: "primary" },
  complete: { label: "Complete", variant: "primary" },
};

/**
 * The buttons for every step `actor` may take on a booking in `status`, straight from the lifecycle's
 * transition table; Cancel opens the reason dialog.
 */
export function StepButtons({
  bookingId,
  status,
  actor,
  otherParty,
}: {
  bookingId: Id<"bookings">;
  status: BookingStatus;
  actor: Canceller;
  otherParty: string;
}) {
  const mutations: Record<DirectStep, (args: { bookingId: Id<"bookings"> }) => Promise<null>> = {
    accept: useMutation(api.bookings.accept),
    reject: useMutation(api.bookings.reject),
    startTrip: useMutation(api.bookings.startTrip),
    arrive: useMutation(api.bookings.arrive),
    complete: useMutation(api.bookings.complete),
  };
  const [busy, setBusy] = useState<Step | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const steps = stepsFor(status, actor);
  if (steps.length === 0) return null;

  async function run(step: DirectStep) {
    setBusy(step);
    try {
      await mutations[step]({ bookingId });
    } catch (error) {
      toast.error(errorMessage(error, "Could not update the booking. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mt-3 flex flex-wrap justify-end gap-2">
      {steps.map((step) =>
        step === "cancel" ? (
          <Button
            key={step}
            size="sm"
            variant="secondary"
            disabled={busy !== null}
            onClick={() => setCancelling(true)}
          >
            {cancelLabel(actor)}
          </Button>
        ) : (
          <Button
            key={step}
            size="sm"
            variant={LABELS[step].variant}
            disabled={busy !== null}
            onClick={() => void run(step)}
            className="min-w-24 flex-1 sm:flex-none"
          >
            {busy === step ? "Please wait…" : LABELS[step].label}
          </Button>
        ),
      )}
      {cancelling && (
        <CancelDialog
          bookingId={bookingId}
          by={actor}
          otherParty={otherParty}
          onClose={() => setCancelling(false)}
        />
      )}
    </div>
  );
}
