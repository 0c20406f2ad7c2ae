import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";

/**
 * The customer's word that the job the professional marked done is done (rules/bookingLifecycle.ts
 * COMPLETION): until they give it, the job cannot be rated.
 */
export function ConfirmJobDone({ bookingId, name }: { bookingId: Id<"bookings">; name: string }) {
  const confirm = useMutation(api.bookings.confirmDone);
  const { busy, run } = useBusyCall();
  return (
    <div className="mt-3 rounded-xl bg-amber-50 p-3">
      <p className="text-sm text-slate-800">{m.confirm_done_hint({ name })}</p>
      <Button
        className="mt-2"
        disabled={busy}
        onClick={() => void run(() => confirm({ bookingId }), m.confirm_done_failed())}
      >
        {busy ? m.confirm_done_sending() : m.confirm_done()}
      </Button>
    </div>
  );
}

/** What the professional sees on a job they marked done that its customer has not confirmed. */
export function AwaitingConfirmation() {
  return <p className="mt-3 text-sm text-slate-600">{m.awaiting_confirmation()}</p>;
}
