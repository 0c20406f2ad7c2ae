import type { Locale } from "@/i18n/locale";
import { NEPALI_NAME } from "@/i18n/devanagari-chrome";
import { m } from "@/i18n/paraglide/messages";

const OPTIONS: { locale: Locale; short: string; name: string; lang: string }[] = [
  { locale: "en", short: "EN", name: "English", lang: "en" },
  { locale: "ne-NP", short: NEPALI_NAME.short, name: NEPALI_NAME.full, lang: "ne-NP" },
];

/**
 * English / नेपाली as a two-button group; each option is written in its own language so a reader of
 * either finds theirs. `compact` shows "EN" / "ने" (the header at 360 px).
 */
export function LanguageSwitch({
  locale,
  onChange,
  compact = false,
  className = "",
}: {
  locale: Locale;
  onChange: (locale: Locale) => void;
  compact?: boolean;
  className?: string;
}) {
  return (
    <div
      role="group"
      aria-label={m.language_label()}
      className={`inline-flex rounded-lg border border-slate-300 bg-white font-chrome text-sm ${compact ? "" : "p-0.5"} ${className}`}
    >
      {OPTIONS.map((option) => {
        const active = option.locale === locale;
        return (
          <button
            key={option.locale}
            type="button"
            lang={option.lang}
            aria-pressed={active}
            onClick={() => onChange(option.locale)}
            className={`inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-2 leading-tight font-medium ${
              active ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"
            }`}
          >
            {compact ? (
              // The visible "EN" stays part of the name (voice control), the full name follows it.
              <>
                {option.short}
                <span className="sr-only"> {option.name}</span>
              </>
            ) : (
              option.name
            )}
          </button>
        );
      })}
    </div>
  );
}
