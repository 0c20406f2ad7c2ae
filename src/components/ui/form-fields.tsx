import { useEffect, useRef, useState, type ChangeEvent, type ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import {
  FileField,
  PasswordField,
  SelectField,
  TextareaField,
  TextField,
} from "@/components/ui/inputs";
import { useLocale } from "@/i18n/locale";
import { fieldError, useFieldContext, useFormContext } from "@/lib/form-context";
import { IMAGE_ACCEPT } from "@/lib/upload";
import { parseDigits, toLatinDigits } from "@/lib/digits";
import { ACCOUNT_CODE } from "@convex/rules/accountCodes";
import { m } from "@/i18n/paraglide/messages";

// The inputs of src/components/ui/inputs.tsx bound to the TanStack Form field around them
// (registered in src/lib/form.ts). The field supplies name, value, blur, change and the inline error.
type Bound = "name" | "value" | "onChange" | "onBlur" | "error";
type TextChange = ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;

/** The name, blur and inline error every bound input takes from its field. */
function useBound<T>() {
  const field = useFieldContext<T>();
  useErrorInCurrentLocale(field);
  return {
    field,
    bound: { name: field.name, onBlur: field.handleBlur, error: fieldError(field.state.meta) },
  };
}

/**
 * A validation message is worded when the field is validated; after a language switch a shown error
 * is validated again (for each cause that may hold one) so it reads in the new language.
 */
function useErrorInCurrentLocale(field: {
  state: { meta: { errors: readonly unknown[] } };
  form: { state: { submissionAttempts: number } };
  validate: (cause: "change" | "submit") => unknown;
}) {
  const locale = useLocale();
  const wordedIn = useRef(locale);
  useEffect(() => {
    if (wordedIn.current === locale) return;
    wordedIn.current = locale;
    if (field.state.meta.errors.length === 0) return;
    void field.validate("change");
    if (field.form.state.submissionAttempts > 0) void field.validate("submit");
  }, [locale, field]);
}

/** Name, value, blur, change and error for an input whose field holds a string. */
function useBoundText() {
  const { field, bound } = useBound<string>();
  return {
    ...bound,
    value: field.state.value,
    onChange: (e: TextChange) => field.handleChange(e.target.value),
  };
}

/**
 * A text input. Phone numbers and codes (`type="tel"` or `inputMode="numeric"`) accept Devanagari
 * digits as typed and hold Latin ones, which is what the server stores.
 */
export function FormTextField(props: Omit<ComponentProps<typeof TextField>, Bound>) {
  const { field, bound } = useBound<string>();
  const digits = props.type === "tel" || props.inputMode === "numeric";
  return (
    <TextField
      {...props}
      {...bound}
      value={field.state.value}
      onChange={(e) => field.handleChange(digits ? toLatinDigits(e.target.value) : e.target.value)}
    />
  );
}

/** The code a message brought (sign-in, password reset, contact check), typed back. */
export function FormCodeField() {
  return (
    <FormTextField
      label={m.reset_code()}
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={ACCOUNT_CODE.digits}
      required
    />
  );
}

export function FormPasswordField(props: Omit<ComponentProps<typeof PasswordField>, Bound>) {
  const bound = useBoundText();
  return <PasswordField {...props} {...bound} />;
}

/** A password being chosen: the password rule's hint, and the browser offered to suggest one. */
export function FormNewPasswordField({ label }: { label: string }) {
  return (
    <FormPasswordField
      label={label}
      hint={m.field_password_hint()}
      autoComplete="new-password"
      required
    />
  );
}

export function FormSelectField(props: Omit<ComponentProps<typeof SelectField>, Bound>) {
  const bound = useBoundText();
  return <SelectField {...props} {...bound} />;
}

export function FormTextareaField(props: Omit<ComponentProps<typeof TextareaField>, Bound>) {
  const bound = useBoundText();
  return <TextareaField {...props} {...bound} />;
}

/**
 * A number input (prices, minutes) that takes Latin or Devanagari digits ("१५००" holds 1500); while
 * it is empty or unparsable the field holds NaN (for the schema to reject). A text input, since a
 * number input refuses Devanagari digits.
 */
export function FormNumberField(props: Omit<ComponentProps<typeof TextField>, Bound | "type">) {
  const { field, bound } = useBound<number>();
  const [text, setText] = useState(() =>
    Number.isNaN(field.state.value) ? "" : String(field.state.value),
  );
  const shown = parseDigits(text) === field.state.value ? text : String(field.state.value);
  return (
    <TextField
      type="text"
      inputMode="numeric"
      {...props}
      {...bound}
      value={Number.isNaN(field.state.value) ? text : shown}
      onChange={(e) => {
        const latin = toLatinDigits(e.target.value);
        setText(latin);
        field.handleChange(parseDigits(latin));
      }}
    />
  );
}

/** An image file picker; the field holds the chosen File, or null. */
export function FormImageField(
  props: Omit<ComponentProps<typeof TextField>, Bound | "type" | "accept">,
) {
  const { field, bound } = useBound<File | null>();
  return (
    <FileField
      accept={IMAGE_ACCEPT}
      {...props}
      {...bound}
      fileName={field.state.value?.name}
      onChange={(e) => field.handleChange(e.target.files?.[0] ?? null)}
    />
  );
}

/** The form's submit button, disabled (and reading `pendingLabel`) while the form submits. */
export function SubmitButton({
  label,
  pendingLabel = label,
  disabled,
  ...rest
}: Omit<ComponentProps<typeof Button>, "type" | "children"> & {
  label: string;
  pendingLabel?: string;
}) {
  const form = useFormContext();
  return (
    <form.Subscribe selector={(s) => s.isSubmitting}>
      {(submitting) => (
        <Button type="submit" disabled={submitting || disabled} {...rest}>
          {submitting ? pendingLabel : label}
        </Button>
      )}
    </form.Subscribe>
  );
}
