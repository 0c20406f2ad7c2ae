import type { ReactNode } from "react";
import { toast } from "sonner";
import { Form } from "@/components/form";
import type { SignupRole } from "@/features/auth/signup-schema";

export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <main className="mx-auto w-full max-w-lg px-4 py-8 sm:py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <h1 id="auth-heading" className="text-2xl font-bold text-slate-900">
          {title}
        </h1>
        {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

type RoleForm = { state: { values: { role: SignupRole } }; handleSubmit: () => Promise<void> };

/** The login or sign-up form in an AuthCard: with no role chosen it toasts `missingRole` instead. */
export function AuthForm({
  form,
  missingRole,
  children,
}: {
  form: RoleForm;
  missingRole: string;
  children: ReactNode;
}) {
  return (
    <Form
      aria-labelledby="auth-heading"
      className="space-y-4"
      onSubmit={() => (form.state.values.role ? form.handleSubmit() : toast.error(missingRole))}
    >
      {children}
    </Form>
  );
}
