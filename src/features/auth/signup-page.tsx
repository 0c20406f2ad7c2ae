import { AuthCard } from "@/features/auth/auth-card";
import { SignupForm } from "@/features/auth/signup-form";

export default function SignupPage() {
  return (
    <AuthCard title="Create Account" subtitle="Join GharSewa as a customer or a professional.">
      <SignupForm initialRole="" />
    </AuthCard>
  );
}
