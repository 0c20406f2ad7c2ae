import { m } from "@/i18n/paraglide/messages";

/** Spec §1: the About page under the brand heading (the spec's Nepali text; English for English readers). */
export default function AboutPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="mx-auto w-full max-w-3xl px-4 py-10">
        <h1 className="text-3xl font-bold text-brand-700 sm:text-4xl">
          {m.about_heading()}{" "}
          <span className="font-chrome text-xl font-medium text-slate-500">
            ({m.about_subheading()})
          </span>
        </h1>
        <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-800">
          <p>{m.about_p1()}</p>
          <p>{m.about_p2()}</p>
          <p>{m.about_p3()}</p>
        </div>
      </main>
    </div>
  );
}
