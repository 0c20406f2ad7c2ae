import type { ChangeEvent, ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { PasswordField, SelectField, TextareaField, TextField } from "@/components/ui/inputs";
import { fieldError, useFieldContext, useFormContext } from "@/lib/form-context";
import { IMAGE_ACCEPT } from "@/lib/upload";

// The inputs of src/components/ui/inputs.tsx bound to the TanStack Form field around them
// (registered in src/lib/form.ts). The field supplies name, value, blur, change and the inline error.
type Bound = "name" | "value" | "onChange" | "onBlur" | "error";
type TextChange = ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;

/** The name, blur and inline error every bound input takes from its field. */
function useBound<T>() {
  const field = useFieldContext<T>();
  return {
    field,
    bound: { name: field.name, onBlur: field.handleBlur, error: fieldError(field.state.meta) },
  };
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

export function FormTextField(props: Omit<ComponentProps<typeof TextField>, Bound>) {
  const bound = useBoundText();
  return <TextField {...props} {...bound} />;
}

export function FormPasswordField(props: Omit<ComponentProps<typeof PasswordField>, Bound>) {
  const bound = useBoundText();
  return <PasswordField {...props} {...bound} />;
}

export function FormSelectField(props: Omit<ComponentProps<typeof SelectField>, Bound>) {
  const bound = useBoundText();
  return <SelectField {...props} {...bound} />;
}

export function FormTextareaField(props: Omit<ComponentProps<typeof TextareaField>, Bound>) {
  const bound = useBoundText();
  return <TextareaField {...props} {...bound} />;
}

/** A number input; while it is empty or unparsable the field holds NaN (for the schema to reject). */
export function FormNumberField(props: Omit<ComponentProps<typeof TextField>, Bound | "type">) {
  const { field, bound } = useBound<number>();
  return (
    <TextField
      type="number"
      inputMode="numeric"
      {...props}
      {...bound}
      value={Number.isNaN(field.state.value) ? "" : field.state.value}
      onChange={(e) => field.handleChange(e.target.valueAsNumber)}
    />
  );
}

/** An image file picker; the field holds the chosen File, or null. */
export function FormImageField(
  props: Omit<ComponentProps<typeof TextField>, Bound | "type" | "accept">,
) {
  const { field, bound } = useBound<File | null>();
  return (
    <TextField
      type="file"
      accept={IMAGE_ACCEPT}
      {...props}
      {...bound}
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
