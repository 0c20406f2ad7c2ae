import { useState } from "react";
import * as z from "zod/mini";
import { TOTP, TOTP_CODE } from "@convex/rules/twoFactor";
import { InlineAlert } from "@/components/ui/states";
import { Form, useAppForm } from "@/components/form";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

const codeSchema = z.object({
  code: z.string().check(z.trim(), z.regex(TOTP_CODE, { error: () => m.tf_code_rule() })),
});

/**
 * A code from the authenticator app, sent by `send`: it answers null for a wrong code (the server
 * counts the guess) or whatever the caller shows next.
 */
export function AuthenticatorCodeForm<T>({
  submitLabel,
  send,
  onAccepted,
}: {
  submitLabel: string;
  send: (code: string) => Promise<T | null>;
  onAccepted: (result: T) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useAppForm({
    defaultValues: { code: "" },
    validators: { onSubmit: codeSchema },
    onSubmit: async ({ value, formApi }) => {
      setProblem(null);
      try {
        const result = await send(value.code.trim());
        if (result === null) {
          setProblem(m.tf_code_wrong());
          formApi.reset();
        } else onAccepted(result);
      } catch (e) {
        setProblem(errorMessage(e, m.tf_failed()));
      }
    },
  });
  return (
    <Form className="max-w-xs space-y-3" onSubmit={() => form.handleSubmit()}>
      <form.AppField name="code">
        {(f) => (
          <f.TextField
            label={m.tf_code()}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={TOTP.digits}
            required
          />
        )}
      </form.AppField>
      {problem !== null && <InlineAlert tone="error">{problem}</InlineAlert>}
      <form.AppForm>
        <form.SubmitButton label={submitLabel} pendingLabel={m.please_wait()} />
      </form.AppForm>
    </Form>
  );
}
