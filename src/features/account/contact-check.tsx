import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { ACCOUNT_CODE } from "@convex/rules/accountCodes";
import { Form, useAppForm } from "@/components/form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { InlineAlert } from "@/components/ui/states";
import { codeRule } from "@/lib/code-rule";
import { errorMessage } from "@/lib/errors";
import { formatDigits } from "@/lib/numbers";
import { useBusyCall } from "@/lib/use-busy-call";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

type Kind = "email" | "phone";

const codeSchema = z.object({ code: codeRule });

/**
 * The account's email address and phone number, each verified or not; an unverified one gets a
 * code sent to it and typed back here. The viewer query is live: the mark appears at once.
 */
export function ContactCheck() {
  const viewer = useQuery(api.users.viewer);
  if (!viewer || (!viewer.email && !viewer.phone)) return null;
  return (
    <section
      aria-labelledby="contact-check"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="contact-check" className="text-lg font-semibold">
        {m.cv_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.cv_text()}</p>
      <ul className="mt-4 space-y-4">
        {viewer.email && (
          <ContactRow kind="email" value={viewer.email} verified={viewer.emailVerified} />
        )}
        {viewer.phone && (
          <ContactRow
            kind="phone"
            value={formatDigits(viewer.phone)}
            verified={viewer.phoneVerified}
          />
        )}
      </ul>
    </section>
  );
}

function ContactRow({ kind, value, verified }: { kind: Kind; value: string; verified: boolean }) {
  const sendCode = useMutation(api.contactVerification.sendCode);
  const confirm = useMutation(api.contactVerification.confirm);
  const [sent, setSent] = useState(false);
  const { busy, run } = useBusyCall();
  const [wrong, setWrong] = useState(false);
  const label = kind === "email" ? m.label_email() : m.label_phone_short();
  const form = useAppForm({
    defaultValues: { code: "" },
    validators: { onSubmit: codeSchema },
    onSubmit: async ({ value: form, formApi }) => {
      setWrong(false);
      try {
        if (await confirm({ kind, code: form.code.trim() })) {
          toast.success(kind === "email" ? m.cv_email_done() : m.cv_phone_done());
          setSent(false);
        } else {
          setWrong(true);
          formApi.reset();
        }
      } catch (e) {
        toast.error(errorMessage(e, m.cv_failed()));
      }
    },
  });

  async function send() {
    if (await run(() => sendCode({ kind, language: getLocale() }), m.cv_failed())) setSent(true);
  }

  return (
    <li aria-label={label} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium text-slate-700">{label}:</span>
        <span className="text-sm break-all text-slate-900">{value}</span>
        {verified ? (
          <Badge tone="success">{m.badge_verified()}</Badge>
        ) : (
          <Badge tone="warning">{m.cv_not_verified()}</Badge>
        )}
      </div>
      {!verified && !sent && (
        <Button variant="secondary" size="sm" onClick={() => void send()} disabled={busy}>
          {kind === "email" ? m.cv_send_email() : m.cv_send_sms()}
        </Button>
      )}
      {!verified && sent && (
        <Form className="max-w-xs space-y-3" onSubmit={() => form.handleSubmit()}>
          <InlineAlert tone="success">
            {m.cv_code_sent({ minutes: formatDigits(String(ACCOUNT_CODE.lifetimeMs / 60_000)) })}
          </InlineAlert>
          <form.AppField name="code">{(f) => <f.CodeField />}</form.AppField>
          {wrong && <InlineAlert tone="error">{m.cv_code_wrong()}</InlineAlert>}
          <div className="flex flex-wrap gap-2">
            <form.AppForm>
              <form.SubmitButton label={m.cv_confirm()} pendingLabel={m.please_wait()} />
            </form.AppForm>
            <Button variant="ghost" size="sm" onClick={() => void send()} disabled={busy}>
              {m.action_send_new_code()}
            </Button>
          </div>
        </Form>
      )}
    </li>
  );
}
