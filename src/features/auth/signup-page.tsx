import { AuthCard } from "@/features/auth/auth-card";
import { SignupForm } from "@/features/auth/signup-form";
import { m } from "@/i18n/paraglide/messages";

export default function SignupPage() {
  return (
    <AuthCard title={m.signup_title()} subtitle={m.signup_subtitle()}>
      <SignupForm initialRole="" />
    </AuthCard>
  );
}
