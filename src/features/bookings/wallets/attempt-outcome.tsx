import type { AttemptProblem, AttemptState } from "@convex/rules/wallets";
import { m } from "@/i18n/paraglide/messages";

export type AttemptView = {
  method: "esewa" | "khalti";
  state: AttemptState | string;
  problem: AttemptProblem | null;
  gatewayId: string | null;
};

const WALLET = { esewa: () => m.method_esewa(), khalti: () => m.method_khalti() };

/** What became of a payment, in words of its own for each state and problem. */
export function outcomeText(a: AttemptView): { tone: "busy" | "good" | "bad"; text: string } {
  const wallet = WALLET[a.method]();
  if (a.problem === "unverified")
    return { tone: "bad", text: m.pay_problem_unverified({ wallet }) };
  switch (a.state) {
    case "opening":
      return { tone: "busy", text: m.pay_state_opening({ wallet }) };
    case "open":
      return { tone: "busy", text: m.pay_state_open({ wallet }) };
    case "checking":
      return { tone: "busy", text: m.pay_state_checking({ wallet }) };
    case "pending":
      return {
        tone: "busy",
        text:
          a.problem === "unreachable"
            ? m.pay_state_unreachable_retrying({ wallet })
            : m.pay_state_pending({ wallet }),
      };
    case "paid":
      return { tone: "good", text: m.pay_state_paid({ wallet, id: a.gatewayId ?? "" }) };
    case "canceled":
      return { tone: "bad", text: m.pay_state_canceled({ wallet }) };
    case "expired":
      return { tone: "bad", text: m.pay_state_expired({ wallet }) };
    case "refunded":
      return { tone: "bad", text: m.pay_state_refunded({ wallet }) };
    default:
      return { tone: "bad", text: problemText(a.problem, wallet) };
  }
}

function problemText(problem: AttemptProblem | null, wallet: string): string {
  switch (problem) {
    case "amount_mismatch":
      return m.pay_problem_amount({ wallet });
    case "unreachable":
      return m.pay_problem_unreachable({ wallet });
    case "refused":
      return m.pay_problem_refused({ wallet });
    case "bill_changed":
      return m.pay_problem_bill_changed({ wallet });
    case "already_paid":
      return m.pay_problem_already_paid({ wallet });
    case "unsettled":
      return m.pay_problem_unsettled({ wallet });
    default:
      return m.pay_problem_other({ wallet });
  }
}

const TONES = {
  busy: "border-slate-200 bg-slate-50 text-slate-800",
  good: "border-green-200 bg-green-50 text-green-800",
  bad: "border-amber-200 bg-amber-50 text-amber-900",
};

/** The outcome as a live region: read out when it changes. */
export function AttemptOutcome({ attempt }: { attempt: AttemptView }) {
  const { tone, text } = outcomeText(attempt);
  return (
    <div
      role="status"
      aria-live="polite"
      className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm ${TONES[tone]}`}
    >
      {tone === "busy" && (
        <span
          aria-hidden="true"
          className="mt-0.5 h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700 motion-reduce:animate-none"
        />
      )}
      <p>{text}</p>
    </div>
  );
}
