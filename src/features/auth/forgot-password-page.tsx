import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { ACCOUNT_CODE, parseContact } from "@convex/rules/accountCodes";
import { passwordRule } from "@convex/rules/profile";
import { InlineAlert } from "@/components/ui/states";
import { Form, useAppForm } from "@/components/form";
import { AuthCard } from "@/features/auth/auth-card";
import { RoleRadios } from "@/features/auth/role-radios";
import { errorMessage } from "@/lib/errors";
import { paths } from "@/lib/paths";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

type Role = "customer" | "professional";

const contactSchema = z.object({
  contact: z
    .string()
    .check(z.refine((s) => parseContact(s) !== null, { error: () => m.reset_contact_rule() })),
});

const codeSchema = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      z.regex(new RegExp(`^\\d{${ACCOUNT_CODE.digits}}$`), { error: () => m.reset_code_rule() }),
    ),
  newPassword: passwordRule,
});

/** Forgot password: an email or mobile number, then the code sent there and a new password. */
export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const [role, setRole] = useState<Role>(
    params.get("role") === "professional" ? "professional" : "customer",
  );
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <AuthCard title={m.reset_title()} subtitle={m.reset_subtitle()}>
      {sentTo === null ? (
        <AskForCode role={role} onRole={setRole} onSent={setSentTo} />
      ) : (
        <SetNewPassword role={role} contact={sentTo} onAgain={() => setSentTo(null)} />
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link
          to={role === "professional" ? paths.professionalSignin() : paths.login()}
          className="font-medium text-brand-700 underline"
        >
          {m.reset_back_to_login()}
        </Link>
      </p>
    </AuthCard>
  );
}

function AskForCode({
  role,
  onRole,
  onSent,
}: {
  role: Role;
  onRole: (role: Role) => void;
  onSent: (contact: string) => void;
}) {
  const request = useMutation(api.passwordReset.request);
  const form = useAppForm({
    defaultValues: { contact: "" },
    validators: { onSubmit: contactSchema },
    onSubmit: async ({ value }) => {
      try {
        await request({ role, contact: value.contact.trim(), language: getLocale() });
        onSent(value.contact.trim());
      } catch (e) {
        toast.error(errorMessage(e, m.reset_failed()));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <form.AppField name="contact">
        {(f) => (
          <f.TextField
            label={m.reset_contact()}
            hint={m.reset_contact_hint()}
            autoComplete="username"
            inputMode="email"
            required
          />
        )}
      </form.AppField>
      <RoleRadios value={role} onChange={onRole} />
      <form.AppForm>
        <form.SubmitButton
          label={m.reset_send_code()}
          pendingLabel={m.please_wait()}
          className="w-full"
        />
      </form.AppForm>
    </Form>
  );
}

function SetNewPassword({
  role,
  contact,
  onAgain,
}: {
  role: Role;
  contact: string;
  onAgain: () => void;
}) {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  const form = useAppForm({
    defaultValues: { code: "", newPassword: "" },
    validators: { onSubmit: codeSchema },
    onSubmit: async ({ value }) => {
      try {
        await signIn(role, {
          flow: "reset",
          contact,
          code: value.code.trim(),
          newPassword: value.newPassword,
          language: getLocale(),
        });
        toast.success(m.reset_done());
        navigate(role === "professional" ? paths.professionalDashboard() : paths.home());
      } catch (e) {
        toast.error(errorMessage(e, m.reset_failed()));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <InlineAlert tone="success">
        {m.reset_code_sent({ contact, minutes: ACCOUNT_CODE.lifetimeMs / 60_000 })}
      </InlineAlert>
      <form.AppField name="code">
        {(f) => (
          <f.TextField
            label={m.reset_code()}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={ACCOUNT_CODE.digits}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="newPassword">
        {(f) => <f.NewPasswordField label={m.reset_new_password()} />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton
          label={m.reset_set_password()}
          pendingLabel={m.please_wait()}
          className="w-full"
        />
      </form.AppForm>
      <button
        type="button"
        onClick={onAgain}
        className="w-full text-center text-sm font-medium text-brand-700 underline"
      >
        {m.reset_new_code()}
      </button>
    </Form>
  );
}
