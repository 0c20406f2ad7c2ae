export default function HomePage() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="text-4xl font-bold text-brand-700">anytime, anywhere.</h1>
      <p className="mt-3 text-lg text-slate-700">Hire the best professionals for your perfect housing.</p>
    </main>
  );
}
