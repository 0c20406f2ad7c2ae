import { AuthCard } from "@/features/auth/auth-card";
import { SignupForm } from "@/features/auth/signup-form";
import { m } from "@/i18n/paraglide/messages";

export default function ProfessionalSignupPage() {
  return (
    <AuthCard title={m.signup_title()} subtitle={m.signup_professional_subtitle()}>
      <SignupForm initialRole="professional" />
    </AuthCard>
  );
}
