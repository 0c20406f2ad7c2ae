import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

/**
 * The customer's word that the job the professional marked done is done (rules/bookingLifecycle.ts
 * COMPLETION): until they give it, the job cannot be rated.
 */
export function ConfirmJobDone({ bookingId, name }: { bookingId: Id<"bookings">; name: string }) {
  const confirm = useMutation(api.bookings.confirmDone);
  const [busy, setBusy] = useState(false);
  return (
    <div className="mt-3 rounded-xl bg-amber-50 p-3">
      <p className="text-sm text-slate-800">{m.confirm_done_hint({ name })}</p>
      <Button
        className="mt-2"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await confirm({ bookingId });
          } catch (e) {
            toast.error(errorMessage(e, m.confirm_done_failed()));
          } finally {
            setBusy(false);
          }
        }}
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
