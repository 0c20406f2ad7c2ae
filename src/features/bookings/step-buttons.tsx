import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { stepsFor, type BookingStatus, type Step } from "@convex/rules/bookingLifecycle";
import { isLateCancel } from "@convex/rules/cancellation";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorData, errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { stepsOpenAt, tooEarlyForSteps } from "@convex/rules/schedule";
import { CancelDialog, cancelLabel, type Canceller } from "@/features/bookings/cancel-dialog";
import { RejectDialog } from "@/features/bookings/reject-dialog";
import { m } from "@/i18n/paraglide/messages";

/**
 * Not buttons here: "start" takes the start code (start-code.tsx); "noShow" waits for the professional
 * to be late (no-show.tsx).
 */
type OwnPanel = "start" | "noShow";
type DirectStep = Exclude<Step, "cancel" | OwnPanel>;
const isButton = (s: Step): s is DirectStep | "cancel" => s !== "start" && s !== "noShow";

const LABELS: Record<DirectStep, { label: () => string; variant: "primary" | "danger" }> = {
  accept: { label: m.step_accept, variant: "primary" },
  reject: { label: m.step_reject, variant: "danger" },
  startTrip: { label: m.step_start_trip, variant: "primary" },
  arrive: { label: m.step_arrive, variant: "primary" },
  complete: { label: m.step_complete, variant: "primary" },
};

/** Steps of the job itself: open from an hour before the booked time (rules/schedule.ts). */
const LEAD_STEPS: readonly Step[] = ["startTrip", "arrive", "start", "complete"];

/**
 * The buttons for every step `actor` may take on a booking in `status`, straight from the lifecycle's
 * transition table; Cancel opens the reason dialog, Reject asks first (with an optional reason). Accepting a request that clashes with an accepted
 * job asks first; the job's own steps wait until an hour before the booked time.
 */
export function StepButtons({
  bookingId,
  status,
  actor,
  otherParty,
  scheduledFor,
  clashAt,
  feePaisa,
}: {
  bookingId: Id<"bookings">;
  status: BookingStatus;
  actor: Canceller;
  otherParty: string;
  scheduledFor: number;
  /** When the accepted job this request clashes with is booked, if it clashes. */
  clashAt?: number;
  /** What cancelling now costs the customer (rules/cancellation.ts). */
  feePaisa?: number;
}) {
  const [confirmClash, setConfirmClash] = useState<number | null>(null);
  const now = useNow();
  const accept = useMutation(api.bookings.accept);
  const mutations: Record<DirectStep, (args: { bookingId: Id<"bookings"> }) => Promise<null>> = {
    accept: useMutation(api.bookings.accept),
    reject: useMutation(api.bookings.reject),
    startTrip: useMutation(api.bookings.startTrip),
    arrive: useMutation(api.bookings.arrive),
    complete: useMutation(api.bookings.complete),
  };
  const [busy, setBusy] = useState<Step | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const steps = stepsFor(status, actor).filter(isButton);
  if (steps.length === 0) return null;
  const early = tooEarlyForSteps(scheduledFor, now);
  const hasLeadStep = steps.some((s) => LEAD_STEPS.includes(s));

  async function run(step: DirectStep) {
    if (step === "accept" && clashAt !== undefined) {
      setConfirmClash(clashAt);
      return;
    }
    if (step === "reject") {
      setRejecting(true);
      return;
    }
    setBusy(step);
    try {
      await mutations[step]({ bookingId });
    } catch (error) {
      const data = errorData(error);
      if (data?.code === "BOOKING_CLASH" && typeof data.at === "number") setConfirmClash(data.at);
      else toast.error(errorMessage(error, m.step_failed()));
    } finally {
      setBusy(null);
    }
  }

  async function acceptClash() {
    setBusy("accept");
    try {
      await accept({ bookingId, confirmClash: true });
      setConfirmClash(null);
    } catch (error) {
      toast.error(errorMessage(error, m.step_failed()));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mt-3 flex flex-wrap justify-end gap-2">
      {clashAt !== undefined && steps.includes("accept") && (
        <p role="note" className="w-full rounded-lg bg-amber-50 p-2 text-sm text-amber-900">
          {m.step_clash_note({ when: formatDateTime(clashAt) })}
        </p>
      )}
      {early && hasLeadStep && (
        <p className="w-full text-sm text-slate-600">
          {m.step_too_early({ when: formatDateTime(stepsOpenAt(scheduledFor)) })}
        </p>
      )}
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
            disabled={busy !== null || (early && LEAD_STEPS.includes(step))}
            onClick={() => void run(step)}
            className="min-w-24 flex-1 sm:flex-none"
          >
            {busy === step ? m.step_busy() : LABELS[step].label()}
          </Button>
        ),
      )}
      {confirmClash !== null && (
        <Dialog
          open
          onClose={() => setConfirmClash(null)}
          title={m.clash_title()}
          description={m.clash_text({ when: formatDateTime(confirmClash) })}
        >
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirmClash(null)}>
              {m.clash_back()}
            </Button>
            <Button onClick={() => void acceptClash()} disabled={busy !== null}>
              {m.clash_accept()}
            </Button>
          </div>
        </Dialog>
      )}
      {rejecting && (
        <RejectDialog
          bookingId={bookingId}
          customer={otherParty}
          onClose={() => setRejecting(false)}
        />
      )}
      {cancelling && (
        <CancelDialog
          bookingId={bookingId}
          by={actor}
          otherParty={otherParty}
          feePaisa={feePaisa}
          strike={actor === "professional" && isLateCancel(status)}
          onClose={() => setCancelling(false)}
        />
      )}
    </div>
  );
}
