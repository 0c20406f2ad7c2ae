import type { LineKind } from "@convex/rules/bill";
import { m } from "@/i18n/paraglide/messages";
import { localServiceName } from "@/i18n/services";

/** A line's words: catalogue services in the reader's language, the visit charge and the fee by their kind. */
export function lineLabel(line: { kind: LineKind; label: string }): string {
  if (line.kind === "service") return localServiceName(line.label);
  if (line.kind === "visit") return m.bill_kind_visit();
  if (line.kind === "fee") return m.bill_fee_label();
  return line.label;
}
