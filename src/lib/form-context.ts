import { createFormHookContexts } from "@tanstack/react-form";
import { localRuleMessage } from "@/i18n/rules";

/** The contexts `useAppForm` (src/lib/form.ts) provides to its field and form components. */
export const { fieldContext, formContext, useFieldContext, useFormContext } =
  createFormHookContexts();

/** The first validation message of a TanStack Form field, once the user has touched it (or submitted). */
export function fieldError(meta: {
  isTouched: boolean;
  errors: readonly unknown[];
}): string | undefined {
  if (!meta.isTouched) return undefined;
  const first = meta.errors.find(Boolean);
  if (!first) return undefined;
  if (typeof first === "string") return localRuleMessage(first);
  if (typeof first === "object" && "message" in first && typeof first.message === "string")
    return localRuleMessage(first.message);
  return undefined;
}
