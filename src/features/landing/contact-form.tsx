import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { contactMessageRules } from "@convex/rules/contact";
import { m } from "@/i18n/paraglide/messages";

// The form always has a phone field, empty when none is given.
const contactForm = z.required(contactMessageRules, { phone: true });

export default function ContactForm() {
  const send = useMutation(api.contact.send);
  const [sent, setSent] = useState(false);
  const form = useAppForm({
    defaultValues: { name: "", email: "", phone: "", message: "" },
    validators: { onChange: contactForm, onSubmit: contactForm },
    onSubmit: async ({ value, formApi }) => {
      try {
        await send({
          name: value.name.trim(),
          email: value.email.trim(),
          message: value.message.trim(),
          ...(value.phone ? { phone: value.phone.trim() } : {}),
        });
        toast.success(m.contact_sent_toast());
        formApi.reset();
        setSent(true);
      } catch (e) {
        toast.error(errorMessage(e, m.contact_send_failed()));
      }
    },
  });

  return (
    <Form
      aria-labelledby="contact-form-heading"
      className="space-y-4"
      onSubmit={() => form.handleSubmit()}
    >
      <h2 id="contact-form-heading" className="text-xl font-semibold">
        {m.contact_form_title()}
      </h2>
      {sent && (
        <p role="status" className="rounded-lg bg-green-50 p-3 text-sm text-green-800">
          {m.contact_sent()}
        </p>
      )}
      <form.AppField name="name">
        {(f) => <f.TextField label={m.contact_name()} autoComplete="name" />}
      </form.AppField>
      <form.AppField name="email">
        {(f) => <f.TextField label={m.label_email()} type="email" autoComplete="email" />}
      </form.AppField>
      <form.AppField name="phone">
        {(f) => <f.TextField label={m.contact_phone()} type="tel" autoComplete="tel" />}
      </form.AppField>
      <form.AppField name="message">
        {(f) => <f.TextareaField label={m.contact_message()} rows={5} />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton
          label={m.contact_send()}
          pendingLabel={m.state_sending()}
          className="w-full sm:w-auto"
        />
      </form.AppForm>
    </Form>
  );
}
