import { createFormHook } from "@tanstack/react-form";
import {
  FormCodeField,
  FormImageField,
  FormNewPasswordField,
  FormNumberField,
  FormPasswordField,
  FormSelectField,
  FormTextareaField,
  FormTextField,
  SubmitButton,
} from "@/components/ui/form-fields";
import { fieldContext, formContext } from "@/lib/form-context";

/**
 * `useForm` plus the app's inputs bound to their field: inside `<form.AppField name="email">`,
 * `{(field) => <field.TextField label="Email" />}` gets its value, blur, change and inline error
 * from the field; `<form.AppForm><form.SubmitButton label="Save" /></form.AppForm>` its busy state.
 */
export const { useAppForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: {
    TextField: FormTextField,
    CodeField: FormCodeField,
    PasswordField: FormPasswordField,
    NewPasswordField: FormNewPasswordField,
    NumberField: FormNumberField,
    SelectField: FormSelectField,
    TextareaField: FormTextareaField,
    ImageField: FormImageField,
  },
  formComponents: { SubmitButton },
});

export { Form } from "@/components/form-element";
