import type { PaymentMethod } from "@convex/rules/ledger";
import { m } from "@/i18n/paraglide/messages";

/** How a customer paid, in the reader's language. */
export const METHOD_LABEL: Record<PaymentMethod, () => string> = {
  cash: m.method_cash,
  esewa: m.method_esewa,
  khalti: m.method_khalti,
};
