import { useMutation, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { WalletMethod } from "@convex/rules/wallets";
import { InlineAlert } from "@/components/ui/states";
import { m } from "@/i18n/paraglide/messages";
import { errorMessage } from "@/lib/errors";
import { AttemptOutcome } from "./attempt-outcome";

/** Sends the browser to eSewa: its v2 form is a POST of the signed fields, as eSewa requires. */
function postForm(url: string, fields: Record<string, string>) {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = url;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

const WALLET_BUTTONS: Record<WalletMethod, { label: () => string; className: string }> = {
  esewa: {
    label: () => m.pay_with_esewa(),
    className: "bg-[#41a124] hover:bg-[#368a1e] focus-visible:outline-[#41a124]",
  },
  khalti: {
    label: () => m.pay_with_khalti(),
    className: "bg-[#5c2d91] hover:bg-[#4b2477] focus-visible:outline-[#5c2d91]",
  },
};

/**
 * The customer's "Pay with eSewa" / "Pay with Khalti" for a booking's bill, and, live, what became
 * of their latest payment. Nothing here says what to pay: the server takes the bill's amount.
 */
export function WalletButtons({ bookingId }: { bookingId: Id<"bookings"> }) {
  const latest = useQuery(api.wallets.latest, { bookingId });
  const start = useMutation(api.wallets.start);
  const [busy, setBusy] = useState<WalletMethod | null>(null);
  const [error, setError] = useState<string | null>(null);
  // a Khalti payment being opened: its payment_url arrives once Khalti answered
  const [opening, setOpening] = useState<Id<"paymentAttempts"> | null>(null);
  const opened = useQuery(api.wallets.attempt, opening === null ? "skip" : { attemptId: opening });

  const paymentUrl = opened?.paymentUrl ?? null;
  useEffect(() => {
    if (paymentUrl !== null) window.location.assign(paymentUrl);
  }, [paymentUrl]);
  // waiting for Khalti's answer, then for the browser to leave
  const waiting =
    opening !== null &&
    (opened === undefined || opened?.state === "opening" || paymentUrl !== null);
  const pending = busy ?? (waiting ? "khalti" : null);

  const pay = async (method: WalletMethod) => {
    setBusy(method);
    setError(null);
    try {
      const started = await start({ bookingId, method });
      if (started.esewa) return postForm(started.esewa.url, started.esewa.fields);
      setOpening(started.attemptId);
      setBusy(null);
    } catch (e) {
      setError(errorMessage(e, m.pay_start_failed()));
      setBusy(null);
    }
  };

  if (latest?.state === "paid")
    return (
      <div className="mt-3">
        <AttemptOutcome attempt={latest} />
      </div>
    );
  const shown = opened ?? latest;
  return (
    <section className="mt-3 border-t border-slate-100 pt-3" aria-label={m.pay_section_label()}>
      {shown && shown.state !== "opening" && (
        <div className="mb-2">
          <AttemptOutcome attempt={shown} />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {(["esewa", "khalti"] as const).map((method) => (
          <button
            key={method}
            type="button"
            disabled={pending !== null}
            onClick={() => void pay(method)}
            className={`inline-flex min-h-11 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold text-white transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${WALLET_BUTTONS[method].className}`}
          >
            {pending === method ? m.pay_opening() : WALLET_BUTTONS[method].label()}
          </button>
        ))}
      </div>
      {error && (
        <InlineAlert tone="error" className="mt-2">
          {error}
        </InlineAlert>
      )}
    </section>
  );
}
