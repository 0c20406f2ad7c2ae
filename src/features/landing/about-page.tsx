import { ABOUT } from "@/content/about";

export default function AboutPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="mx-auto w-full max-w-3xl px-4 py-10" lang="ne">
        <h1 className="text-3xl font-bold text-brand-700 sm:text-4xl">
          {ABOUT.heading}{" "}
          <span lang="en" className="text-xl font-medium text-slate-500">
            ({ABOUT.subheading})
          </span>
        </h1>
        <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-800">
          {ABOUT.paragraphs.map((p) => (
            <p key={p.slice(0, 24)}>{p}</p>
          ))}
        </div>
      </main>
    </div>
  );
}
