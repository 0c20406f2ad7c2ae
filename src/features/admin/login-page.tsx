import { useAuthActions } from "@convex-dev/auth/react";
import { useForm } from "@tanstack/react-form";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { PasswordField, TextField } from "@/components/ui/inputs";
import { ADMIN_REDIRECT_DELAY_MS } from "@/lib/constants";
import { fieldError } from "@/lib/form";
import { paths } from "@/lib/paths";

export const ADMIN_LOGIN_FAILED = "Login failed. Please check your credentials and try again.";
export const ADMIN_LOGIN_OK = "Login successful";

const adminLoginSchema = z.object({
  username: z.string().trim().min(1, "Username is required."),
  password: z.string().min(1, "Password is required."),
});

export default function AdminLoginPage() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<"ok" | "failed" | null>(null);
  const [showPassword, setShowPassword] = useState(false);

  useEffect(() => {
    if (outcome !== "ok") return;
    const timer = setTimeout(() => navigate(paths.adminPanel()), ADMIN_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  const form = useForm({
    defaultValues: { username: "", password: "" },
    validators: { onSubmit: adminLoginSchema },
    onSubmit: async ({ value }) => {
      setOutcome(null);
      try {
        await signIn("admin", { username: value.username.trim(), password: value.password, flow: "signIn" });
        setOutcome("ok");
      } catch {
        setOutcome("failed");
      }
    },
  });

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-8">
      <div className="w-full max-w-sm rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-center text-2xl font-semibold text-slate-900">Admin Login</h1>
        <form
          noValidate
          className="mt-6 space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            void form.handleSubmit();
          }}
        >
          <form.Field name="username">
            {(field) => (
              <TextField
                label="Username"
                name={field.name}
                autoComplete="username"
                autoCapitalize="none"
                required
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                onBlur={field.handleBlur}
                error={fieldError(field.state.meta)}
              />
            )}
          </form.Field>
          <form.Field name="password">
            {(field) => (
              <PasswordField
                label="Password"
                name={field.name}
                autoComplete="current-password"
                required
                shown={showPassword}
                onToggle={() => setShowPassword((s) => !s)}
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                onBlur={field.handleBlur}
                error={fieldError(field.state.meta)}
              />
            )}
          </form.Field>
          {outcome === "failed" && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {ADMIN_LOGIN_FAILED}
            </p>
          )}
          {outcome === "ok" && (
            <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-700">
              {ADMIN_LOGIN_OK}
            </p>
          )}
          <form.Subscribe selector={(s) => s.isSubmitting}>
            {(isSubmitting) => (
              <Button type="submit" className="w-full" disabled={isSubmitting || outcome === "ok"}>
                Login
              </Button>
            )}
          </form.Subscribe>
        </form>
      </div>
    </main>
  );
}
