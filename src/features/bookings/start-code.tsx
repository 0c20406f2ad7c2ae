import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { isStartCodeShape, START_CODE } from "@convex/rules/startCode";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/inputs";
import { errorMessage } from "@/lib/errors";
import { toLatinDigits } from "@/lib/digits";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";

/** An arrived booking's start code as the booking's views carry it (model/startCodes.ts). */
export type StartState = { code: string | null; triesLeft: number; spent: boolean };

/**
 * The customer's side of the start (rules/startCode.ts): the code to read out to the professional
 * at the door, live; once the professional spent the tries, a button to start the job themself.
 */
export function StartCodePanel({
  bookingId,
  start,
  name,
}: {
  bookingId: Id<"bookings">;
  start: StartState;
  name: string;
}) {
  const confirm = useMutation(api.bookings.confirmStart);
  const { busy, run } = useBusyCall();
  if (start.spent) {
    return (
      <div className="mt-3 rounded-xl bg-amber-50 p-3">
        <p role="status" className="text-sm text-slate-800">
          {m.start_code_spent_customer({ max: formatNumber(START_CODE.tries), name })}
        </p>
        <Button
          className="mt-2"
          disabled={busy}
          onClick={() => void run(() => confirm({ bookingId }), m.start_code_confirm_failed())}
        >
          {busy ? m.start_code_confirming() : m.start_code_confirm()}
        </Button>
      </div>
    );
  }
  if (start.code === null) return null;
  return (
    <section aria-label={m.start_code_title()} className="mt-3 rounded-xl bg-brand-50 p-3">
      <p className="text-sm text-slate-800">{m.start_code_customer_hint({ name })}</p>
      <p className="mt-2 text-sm font-medium text-slate-700">{m.start_code_title()}</p>
      <p
        data-testid="start-code"
        className="text-4xl font-bold tracking-[0.3em] text-brand-800 tabular-nums"
      >
        {formatDigits(start.code)}
      </p>
      {start.triesLeft < START_CODE.tries && (
        <p className="mt-1 text-xs text-slate-600">
          {m.start_code_tries_left({ count: formatNumber(start.triesLeft) })}
        </p>
      )}
    </section>
  );
}

/** The professional's side: the code the customer reads out, typed in either script. */
export function StartCodeForm({
  bookingId,
  start,
}: {
  bookingId: Id<"bookings">;
  start: StartState;
}) {
  const startJob = useMutation(api.bookings.start);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (start.spent) {
    return (
      <p role="status" className="mt-3 rounded-xl bg-amber-50 p-3 text-sm text-slate-800">
        {m.start_code_spent_pro()}
      </p>
    );
  }

  async function submit() {
    const latin = toLatinDigits(code.trim());
    if (!isStartCodeShape(latin)) {
      setError(m.start_code_format({ digits: formatNumber(START_CODE.digits) }));
      return;
    }
    setBusy(true);
    try {
      const result = await startJob({ bookingId, code: latin });
      if (result.started) toast.success(m.start_code_started());
      else {
        setCode("");
        setError(m.start_code_wrong({ count: formatNumber(result.triesLeft) }));
      }
    } catch (e) {
      setError(errorMessage(e, m.start_code_failed()));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="mt-3 flex flex-wrap items-start gap-2 rounded-xl bg-brand-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <TextField
        label={m.start_code_label()}
        hint={m.start_code_pro_hint({ digits: formatNumber(START_CODE.digits) })}
        error={error}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={START_CODE.digits}
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          setError(undefined);
        }}
        wrapperClassName="w-full sm:w-72"
        className="text-lg tracking-[0.3em] tabular-nums"
      />
      <Button type="submit" disabled={busy} className="sm:mt-6">
        {busy ? m.step_busy() : m.start_code_submit()}
      </Button>
    </form>
  );
}
