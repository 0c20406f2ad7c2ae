export default function ProfessionalSignupPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Create Account</h1></main>;
}
