import { useState } from "react";
import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { NO_SHOW } from "@convex/rules/noShow";
import { CancelReasonDialog } from "@/components/cancel-reason-dialog";
import { errorData } from "@/lib/errors";
import { formatNumber } from "@/lib/numbers";
import { formatPaisa } from "@/lib/rupees";
import { m } from "@/i18n/paraglide/messages";

export type Canceller = "customer" | "professional";

const { min } = BOOKING_FIELDS.reason;

/** What each side reads: a customer cancels a booking, a professional calls off a job. */
const WORDS: () => Record<
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
> = () => ({
  customer: {
    title: m.cancel_customer_title(),
    description: (other) => m.cancel_customer_text({ other }),
    keep: m.cancel_keep(),
    confirm: m.cancel_confirm(),
    tooShort: m.cancel_customer_short({ min: formatNumber(min) }),
    done: m.cancel_customer_done(),
    failed: m.cancel_customer_failed(),
  },
  professional: {
    title: m.cancel_pro_title(),
    description: (other) => m.cancel_pro_text({ other }),
    keep: m.cancel_pro_keep(),
    confirm: m.cancel_pro_confirm(),
    tooShort: m.cancel_pro_short({ min: formatNumber(min) }),
    done: m.cancel_pro_done(),
    failed: m.cancel_pro_failed(),
  },
});

/** The label of the button that opens the dialog. */
export const cancelLabel = (by: Canceller) => WORDS()[by].confirm;

/**
 * Asks for the reason the other party will read, then cancels (bookings:cancel). A customer whose
 * professional is already on the way sees the late-cancellation fee first and accepts it by
 * confirming; a fee the server counts differently (the professional set off meanwhile) is shown
 * and asked again.
 */
export function CancelDialog({
  bookingId,
  by,
  otherParty,
  feePaisa: expectedFee = 0,
  strike = false,
  onClose,
}: {
  bookingId: Id<"bookings">;
  by: Canceller;
  otherParty: string;
  /** The late-cancellation fee (rules/cancellation.ts), 0 for none. */
  feePaisa?: number;
  /** A professional calling the job off late gets a strike (rules/cancellation.ts). */
  strike?: boolean;
  onClose: () => void;
}) {
  const words = WORDS()[by];
  const cancel = useMutation(api.bookings.cancel);
  const [feePaisa, setFeePaisa] = useState(expectedFee);
  return (
    <CancelReasonDialog
      title={words.title}
      description={words.description(otherParty)}
      tooShort={words.tooShort}
      keepLabel={words.keep}
      confirmLabel={
        feePaisa > 0 ? m.cancel_fee_confirm({ amount: formatPaisa(feePaisa) }) : words.confirm
      }
      done={words.done}
      failed={words.failed}
      call={(reason) =>
        cancel({ bookingId, reason, ...(feePaisa > 0 ? { seenFeePaisa: feePaisa } : {}) })
      }
      onRefused={(e) => {
        const data = errorData(e);
        if (data?.code !== "CANCEL_FEE" || typeof data.feePaisa !== "number") return false;
        setFeePaisa(data.feePaisa);
        return true;
      }}
      onClose={onClose}
    >
      {feePaisa > 0 && (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {m.cancel_fee_note({ amount: formatPaisa(feePaisa), other: otherParty })}
        </p>
      )}
      {strike && (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {m.cancel_pro_strike_note({ other: otherParty, max: formatNumber(NO_SHOW.strikes) })}
        </p>
      )}
    </CancelReasonDialog>
  );
}
