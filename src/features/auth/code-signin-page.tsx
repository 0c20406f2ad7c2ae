import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { ACCOUNT_CODE, mobileDigits } from "@convex/rules/accountCodes";
import { InlineAlert } from "@/components/ui/states";
import { Form, useAppForm } from "@/components/form";
import { AuthCard } from "@/features/auth/auth-card";
import { RoleRadios } from "@/features/auth/role-radios";
import { errorMessage } from "@/lib/errors";
import { formatDigits } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

type Role = "customer" | "professional";

const phoneSchema = z.object({
  phone: z
    .string()
    .check(z.refine((s) => mobileDigits(s) !== null, { error: () => m.code_signin_phone_rule() })),
});

const codeSchema = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      z.regex(new RegExp(`^\\d{${ACCOUNT_CODE.digits}}$`), { error: () => m.reset_code_rule() }),
    ),
});

/** Sign in without a password: a verified mobile number, then the 6-digit code sent there by SMS. */
export default function CodeSigninPage() {
  const [params] = useSearchParams();
  const [role, setRole] = useState<Role>(
    params.get("role") === "professional" ? "professional" : "customer",
  );
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <AuthCard title={m.code_signin_title()} subtitle={m.code_signin_subtitle()}>
      {sentTo === null ? (
        <AskForCode role={role} onRole={setRole} onSent={setSentTo} />
      ) : (
        <EnterCode role={role} phone={sentTo} onAgain={() => setSentTo(null)} />
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link
          to={role === "professional" ? paths.professionalSignin() : paths.login()}
          className="font-medium text-brand-700 underline"
        >
          {m.code_signin_use_password()}
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
  onSent: (phone: string) => void;
}) {
  const request = useMutation(api.signInCodes.request);
  const form = useAppForm({
    defaultValues: { phone: "" },
    validators: { onSubmit: phoneSchema },
    onSubmit: async ({ value }) => {
      try {
        const phone = mobileDigits(value.phone)!;
        await request({ role, phone, language: getLocale() });
        onSent(phone);
      } catch (e) {
        toast.error(errorMessage(e, m.code_signin_failed()));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <form.AppField name="phone">
        {(f) => (
          <f.TextField
            label={m.code_signin_phone()}
            hint={m.code_signin_phone_hint()}
            type="tel"
            autoComplete="tel"
            placeholder={formatDigits("98XXXXXXXX")}
            required
          />
        )}
      </form.AppField>
      <RoleRadios value={role} onChange={onRole} />
      <form.AppForm>
        <form.SubmitButton
          label={m.code_signin_send()}
          pendingLabel={m.please_wait()}
          className="w-full"
        />
      </form.AppForm>
    </Form>
  );
}

function EnterCode({ role, phone, onAgain }: { role: Role; phone: string; onAgain: () => void }) {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  const form = useAppForm({
    defaultValues: { code: "" },
    validators: { onSubmit: codeSchema },
    onSubmit: async ({ value }) => {
      try {
        await signIn(role, { flow: "code", phone, code: value.code.trim() });
        toast.success(m.login_success());
        navigate(paths.roleHome(role));
      } catch (e) {
        toast.error(errorMessage(e, m.code_signin_failed()));
      }
    },
  });
  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <InlineAlert tone="success">
        {m.code_signin_sent({
          phone: formatDigits(phone),
          minutes: formatDigits(String(ACCOUNT_CODE.lifetimeMs / 60_000)),
        })}
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
      <form.AppForm>
        <form.SubmitButton
          label={m.code_signin_button()}
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
