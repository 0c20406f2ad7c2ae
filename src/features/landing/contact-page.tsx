export default function ContactPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Contact us</h1></main>;
}
