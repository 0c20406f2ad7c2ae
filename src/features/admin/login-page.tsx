export default function AdminLoginPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Admin login</h1></main>;
}
