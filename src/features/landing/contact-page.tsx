import { useState } from "react";
import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { contactMessageRules } from "@convex/rules/contact";
import { m } from "@/i18n/paraglide/messages";
import { formatDigits } from "@/lib/numbers";

// The form always has a phone field, empty when none is given.
const contactForm = z.required(contactMessageRules, { phone: true });

export default function ContactPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 md:grid-cols-[1fr_1.4fr]">
        <section>
          <h1 className="text-3xl font-bold">{m.contact_title()}</h1>
          <p className="mt-3 text-slate-700">{m.contact_intro()}</p>
          <ErrorBoundary
            fallback={() => <p className="mt-4 text-slate-600">{m.contact_hotline_failed()}</p>}
          >
            <HotlineCard />
          </ErrorBoundary>
        </section>
        <ContactForm />
      </main>
    </div>
  );
}

function HotlineCard() {
  const settings = useQuery(api.settings.get);
  return (
    <div className="mt-6 rounded-xl border border-brand-100 bg-brand-50 p-4">
      <p className="text-sm text-brand-800">{m.contact_hotline()}</p>
      {settings ? (
        <a
          href={`tel:${settings.hotline.replace(/[^\d+]/g, "")}`}
          className="text-2xl font-semibold text-brand-800 underline-offset-4 hover:underline"
        >
          {formatDigits(settings.hotline)}
        </a>
      ) : (
        <p className="text-2xl font-semibold text-brand-800">…</p>
      )}
    </div>
  );
}

function ContactForm() {
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
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
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
