import { AuthCard, SignupForm } from "@/features/auth/auth-card";
import { m } from "@/i18n/paraglide/messages";

export default function CustomerSignupPage() {
  return (
    <AuthCard title={m.signup_title()} subtitle={m.signup_customer_subtitle()}>
      <SignupForm initialRole="customer" />
    </AuthCard>
  );
}
