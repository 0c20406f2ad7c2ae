import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { Form } from "@/components/form-element";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/inputs";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

const { min, max } = BOOKING_FIELDS.reason;

/**
 * Asks for the reason the other party will read, then cancels a booking: too short a reason is
 * said under the field; the call's refusal in a toast unless `onRefused` handles it (and returns
 * true). The dialog closes once the call went through.
 */
export function CancelReasonDialog({
  title,
  description,
  tooShort,
  keepLabel,
  confirmLabel,
  done,
  failed,
  call,
  onRefused,
  onClose,
  children,
}: {
  title: string;
  description: string;
  tooShort: string;
  keepLabel: string;
  confirmLabel: string;
  /** The toast once the call went through. */
  done: string;
  failed: string;
  call: (reason: string) => Promise<unknown>;
  onRefused?: (error: unknown) => boolean;
  onClose: () => void;
  /** Notes above the field (a fee, a strike). */
  children?: ReactNode;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (reason.trim().length < min) {
      setError(tooShort);
      return;
    }
    setBusy(true);
    try {
      await call(reason.trim());
      toast.success(done);
      onClose();
    } catch (e) {
      if (!onRefused?.(e)) toast.error(errorMessage(e, failed));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} title={title} description={description}>
      <Form className="mt-4 space-y-4" onSubmit={confirm}>
        {children}
        <TextareaField
          label={m.label_reason()}
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
            {keepLabel}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? m.step_busy() : confirmLabel}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
