import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useAuthActions } from "@convex-dev/auth/react";
import { toast } from "sonner";
import { z } from "zod";
import { AuthCard, AuthForm } from "@/features/auth/auth-card";
import { RoleRadios } from "@/features/auth/role-radios";
import type { SignupRole } from "@/features/auth/signup-schema";
import { errorMessage } from "@/lib/errors";
import { useAppForm } from "@/components/form";
import { paths } from "@/lib/paths";
import { RETURN_PARAM, safeReturnTo } from "@/lib/booking-intent";
import { emailRule } from "@convex/rules/profile";

const loginSchema = z.object({
  email: emailRule,
  password: z.string().min(1, "Please enter your password."),
  role: z.enum(["", "customer", "professional"]),
});

export default function LoginPage() {
  return (
    <AuthCard title="Login" subtitle="Welcome back to GharSewa.">
      <LoginForm />
    </AuthCard>
  );
}

function LoginForm() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  // back to where the visitor was (e.g. the search page, its booking dialog reopened)
  const returnTo = safeReturnTo(useSearchParams()[0].get(RETURN_PARAM)) ?? undefined;
  const form = useAppForm({
    defaultValues: { email: "", password: "", role: "" as SignupRole },
    validators: { onChange: loginSchema, onSubmit: loginSchema },
    onSubmit: async ({ value }) => {
      try {
        await signIn(value.role as "customer" | "professional", {
          flow: "signIn",
          email: value.email.trim(),
          password: value.password,
        });
        toast.success("Logged in successfully");
        navigate(returnTo ?? paths.home());
      } catch (e) {
        toast.error(errorMessage(e, "Something went wrong"));
      }
    },
  });

  return (
    <AuthForm form={form} missingRole="Please select customer or Professional">
      <form.AppField name="email">
        {(f) => <f.TextField label="Email" type="email" autoComplete="email" />}
      </form.AppField>
      <form.AppField name="password">
        {(f) => <f.PasswordField label="Password" autoComplete="current-password" />}
      </form.AppField>
      <form.Field name="role">
        {(f) => <RoleRadios value={f.state.value} onChange={(r) => f.handleChange(r)} />}
      </form.Field>
      <form.AppForm>
        <form.SubmitButton label="Login" pendingLabel="Please wait" className="w-full" />
      </form.AppForm>
      <p className="text-center text-sm text-slate-600">
        New to GharSewa?{" "}
        <Link to={paths.signup(returnTo)} className="font-medium text-brand-700 underline">
          Signup
        </Link>
      </p>
    </AuthForm>
  );
}
