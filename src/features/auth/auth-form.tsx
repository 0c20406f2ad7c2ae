import type { ReactNode } from "react";
import { toast } from "sonner";
import { Form } from "@/components/form";
import type { SignupRole } from "@/features/auth/signup-schema";

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
