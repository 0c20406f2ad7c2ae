import { AuthCard, SignupForm } from "@/features/auth/auth-card";
import { m } from "@/i18n/paraglide/messages";

export default function ProfessionalSignupPage() {
  return (
    <AuthCard title={m.signup_title()} subtitle={m.signup_professional_subtitle()}>
      <SignupForm initialRole="professional" />
    </AuthCard>
  );
}
