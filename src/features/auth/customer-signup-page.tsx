import { AuthCard } from "@/features/auth/auth-card";
import { SignupForm } from "@/features/auth/signup-form";

export default function CustomerSignupPage() {
  return (
    <AuthCard title="Create Account" subtitle="Register as a user to book trusted professionals.">
      <SignupForm initialRole="customer" />
    </AuthCard>
  );
}
