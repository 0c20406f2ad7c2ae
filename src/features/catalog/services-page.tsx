export default function ServicesPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Our Services</h1></main>;
}
