import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { partAfterPaint } from "@/components/ui/part-placeholder";
import { m } from "@/i18n/paraglide/messages";
import { formatDigits } from "@/lib/numbers";

// as tall as the form (at 360-1280 px)
const ContactForm = partAfterPaint(
  () => import("@/features/landing/contact-form"),
  "min-h-[32.4rem]",
);

export default function ContactPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 md:grid-cols-[1fr_1.4fr]">
        <section>
          <h1 className="text-3xl font-bold">{m.contact_title()}</h1>
          <p className="mt-3 text-slate-700">{m.contact_intro()}</p>
          <ErrorBoundary
            fallback={() => <p className="mt-4 text-slate-600">{m.contact_hotline_failed()}</p>}
          >
            <HotlineCard />
          </ErrorBoundary>
        </section>
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <ContactForm />
        </div>
      </main>
    </div>
  );
}

function HotlineCard() {
  const settings = useQuery(api.settings.get);
  return (
    <div className="mt-6 rounded-xl border border-brand-100 bg-brand-50 p-4">
      <p className="text-sm text-brand-800">{m.contact_hotline()}</p>
      {settings ? (
        <a
          href={`tel:${settings.hotline.replace(/[^\d+]/g, "")}`}
          className="text-2xl font-semibold text-brand-800 underline-offset-4 hover:underline"
        >
          {formatDigits(settings.hotline)}
        </a>
      ) : (
        <p className="text-2xl font-semibold text-brand-800">…</p>
      )}
    </div>
  );
}
