import type { LineKind } from "@convex/rules/bill";
import type { PaymentMethod } from "@convex/rules/ledger";
import { m } from "@/i18n/paraglide/messages";
import { localServiceName } from "@/i18n/services";

export const METHOD_LABEL: Record<PaymentMethod, () => string> = {
  cash: m.method_cash,
  esewa: m.method_esewa,
  khalti: m.method_khalti,
};

/** A line's words: catalogue services in the reader's language, the visit charge by its kind. */
export function lineLabel(line: { kind: LineKind; label: string }): string {
  if (line.kind === "service") return localServiceName(line.label);
  if (line.kind === "visit") return m.bill_visit_label();
  return line.label;
}
