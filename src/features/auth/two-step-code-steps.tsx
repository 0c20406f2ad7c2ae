import type { ComponentProps } from "react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { passwordRule } from "@convex/rules/profile";
import { Form, useAppForm } from "@/components/form";
import type { TextField } from "@/components/ui/inputs";
import { InlineAlert } from "@/components/ui/states";
import { RoleRadios } from "@/features/auth/role-radios";
import { codeRule } from "@/lib/code-rule";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

export type Role = "customer" | "professional";

/** What the typed-back code step holds; `newPassword` stays empty where the page asks for none. */
type CodeStepValues = { code: string; newPassword: string };

export type TwoStepCodeProps = {
  title: string;
  subtitle: string;
  /** The link back to the password sign-in page of the chosen role. */
  backLabel: string;
  /** The toast's fallback when either step is refused. */
  failed: string;
  /** The first step's one field: where the code goes. */
  address: {
    label: string;
    hint: string;
    input: Pick<
      ComponentProps<typeof TextField>,
      "type" | "autoComplete" | "inputMode" | "placeholder"
    >;
    /** The address the code is sent to, or null where the typed text is not one. */
    parse: (typed: string) => string | null;
    rule: () => string;
  };
  sendLabel: string;
  send: (role: Role, address: string) => Promise<unknown>;
  /** The note above the code field once the code is on its way to `address`. */
  sentNotice: (address: string) => string;
  /** Where the second step also asks for a new password, its label. */
  newPasswordLabel?: string;
  submitLabel: string;
  /** Uses the code; resolves once the person is signed in and sent on. */
  submit: (role: Role, address: string, values: CodeStepValues) => Promise<unknown>;
};

/** The step the page is at: the address and role, or the code sent there. */
export default function TwoStepCodeSteps({
  sentTo,
  onSent,
  onAgain,
  ...props
}: TwoStepCodeProps & {
  role: Role;
  onRole: (role: Role) => void;
  sentTo: string | null;
  onSent: (to: string) => void;
  onAgain: () => void;
}) {
  return sentTo === null ? (
    <AskForCode {...props} onSent={onSent} />
  ) : (
    <EnterCode {...props} sentTo={sentTo} onAgain={onAgain} />
  );
}

function AskForCode({
  address,
  sendLabel,
  send,
  failed,
  role,
  onRole,
  onSent,
}: TwoStepCodeProps & { role: Role; onRole: (role: Role) => void; onSent: (to: string) => void }) {
  const form = useAppForm({
    defaultValues: { address: "" },
    validators: {
      onSubmit: z.object({
        address: z
          .string()
          .check(z.refine((s) => address.parse(s) !== null, { error: address.rule })),
      }),
    },
    onSubmit: async ({ value }) => {
      try {
        const to = address.parse(value.address)!;
        await send(role, to);
        onSent(to);
      } catch (e) {
        toast.error(errorMessage(e, failed));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <form.AppField name="address">
        {(f) => (
          <f.TextField label={address.label} hint={address.hint} {...address.input} required />
        )}
      </form.AppField>
      <RoleRadios value={role} onChange={onRole} />
      <form.AppForm>
        <form.SubmitButton label={sendLabel} pendingLabel={m.please_wait()} className="w-full" />
      </form.AppForm>
    </Form>
  );
}

const codeOnly = z.object({ code: codeRule, newPassword: z.string() });
const codeAndPassword = z.object({ code: codeRule, newPassword: passwordRule });

function EnterCode({
  sentNotice,
  newPasswordLabel,
  submitLabel,
  submit,
  failed,
  role,
  sentTo,
  onAgain,
}: TwoStepCodeProps & { role: Role; sentTo: string; onAgain: () => void }) {
  const form = useAppForm({
    defaultValues: { code: "", newPassword: "" },
    validators: { onSubmit: newPasswordLabel === undefined ? codeOnly : codeAndPassword },
    onSubmit: async ({ value }) => {
      try {
        await submit(role, sentTo, { ...value, code: value.code.trim() });
      } catch (e) {
        toast.error(errorMessage(e, failed));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <InlineAlert tone="success">{sentNotice(sentTo)}</InlineAlert>
      <form.AppField name="code">{(f) => <f.CodeField />}</form.AppField>
      {newPasswordLabel !== undefined && (
        <form.AppField name="newPassword">
          {(f) => <f.NewPasswordField label={newPasswordLabel} />}
        </form.AppField>
      )}
      <form.AppForm>
        <form.SubmitButton label={submitLabel} pendingLabel={m.please_wait()} className="w-full" />
      </form.AppForm>
      <button
        type="button"
        onClick={onAgain}
        className="w-full text-center text-sm font-medium text-brand-700 underline"
      >
        {m.action_send_new_code()}
      </button>
    </Form>
  );
}
