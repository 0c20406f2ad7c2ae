import { AuthCard, LoginForm } from "@/features/auth/auth-card";
import { m } from "@/i18n/paraglide/messages";

export default function LoginPage() {
  return (
    <AuthCard title={m.nav_login()} subtitle={m.login_subtitle()}>
      <LoginForm />
    </AuthCard>
  );
}
