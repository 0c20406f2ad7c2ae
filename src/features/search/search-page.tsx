export default function SearchPage() {
  return <main className="mx-auto max-w-6xl p-4"><h1 className="text-2xl font-semibold">Service search</h1></main>;
}
