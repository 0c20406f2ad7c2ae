import { AuthCard, SignupForm } from "@/features/auth/auth-card";
import { m } from "@/i18n/paraglide/messages";

export default function SignupPage() {
  return (
    <AuthCard title={m.signup_title()} subtitle={m.signup_subtitle()}>
      <SignupForm initialRole="" />
    </AuthCard>
  );
}
