export default function ProfessionalSigninPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Login as a professional</h1></main>;
}
