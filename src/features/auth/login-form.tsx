import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { useAuthActions } from "@convex-dev/auth/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { AuthForm } from "@/features/auth/auth-form";
import { RoleRadios } from "@/features/auth/role-radios";
import type { SignupRole } from "@/features/auth/signup-schema";
import { errorMessage } from "@/lib/errors";
import { useAppForm } from "@/components/form";
import { paths } from "@/lib/paths";
import { RETURN_PARAM, safeReturnTo } from "@/lib/booking-intent";
import { parseContact } from "@convex/rules/accountCodes";
import { m } from "@/i18n/paraglide/messages";

const loginSchema = z.object({
  email: z
    .string()
    .check(
      z.refine((typed) => parseContact(typed) !== null, { error: () => m.field_contact_rule() }),
    ),
  password: z.string().check(z.minLength(1, { error: () => m.rule_enter_password() })),
  role: z.enum(["", "customer", "professional"]),
});

export default function LoginForm() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  // back to where the visitor was (e.g. the search page, its booking dialog reopened)
  const returnTo = safeReturnTo(useSearchParams()[0].get(RETURN_PARAM)) ?? undefined;
  const form = useAppForm({
    defaultValues: { email: "", password: "", role: "" as SignupRole },
    validators: { onChange: loginSchema, onSubmit: loginSchema },
    onSubmit: async ({ value }) => {
      try {
        const role = value.role as "customer" | "professional";
        await signIn(role, { flow: "signIn", email: value.email.trim(), password: value.password });
        toast.success(m.login_success());
        // a professional's home is their dashboard; a customer goes back to where they were
        navigate(
          role === "professional" ? paths.roleHome(role) : (returnTo ?? paths.roleHome(role)),
        );
      } catch (e) {
        toast.error(errorMessage(e, m.state_failed()));
      }
    },
  });

  return (
    <AuthForm form={form} missingRole={m.login_missing_role()}>
      <form.AppField name="email">
        {(f) => <f.TextField label={m.field_contact()} inputMode="email" autoComplete="username" />}
      </form.AppField>
      <form.AppField name="password">
        {(f) => <f.PasswordField label={m.label_password()} autoComplete="current-password" />}
      </form.AppField>
      <p className="-mt-2 flex flex-wrap justify-between gap-x-4 text-sm">
        <Link
          to={paths.codeSignin("customer")}
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          {m.code_signin_link()}
        </Link>
        <Link
          to={paths.forgotPassword("customer")}
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          {m.reset_forgot_link()}
        </Link>
      </p>
      <form.Field name="role">
        {(f) => <RoleRadios value={f.state.value} onChange={(r) => f.handleChange(r)} />}
      </form.Field>
      <form.AppForm>
        <form.SubmitButton
          label={m.login_button()}
          pendingLabel={m.please_wait()}
          className="w-full"
        />
      </form.AppForm>
      <p className="text-center text-sm text-slate-600">
        {m.login_new()}{" "}
        <Link to={paths.signup(returnTo)} className="font-medium text-brand-700 underline">
          {m.nav_signup()}
        </Link>
      </p>
    </AuthForm>
  );
}
