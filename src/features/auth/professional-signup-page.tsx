import { AuthCard } from "@/features/auth/auth-card";
import { SignupForm } from "@/features/auth/signup-form";

export default function ProfessionalSignupPage() {
  return (
    <AuthCard
      title="Create Account"
      subtitle="Create an account as professional: upload your documents for verification."
    >
      <SignupForm initialRole="professional" />
    </AuthCard>
  );
}
