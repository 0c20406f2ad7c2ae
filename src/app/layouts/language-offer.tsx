import { LanguageSwitch } from "@/components/language-switch";
import { useHasChosenLocale, useLocale } from "@/i18n/locale";
import { useSwitchLocale } from "@/app/locale-profile-sync";
import { LANGUAGE_NE } from "@/i18n/devanagari-chrome";

/**
 * A new visitor's first screen offers the language, asked in both (the browser's guess may be wrong);
 * it goes once a choice is stored on this device. One short line, so a phone's first screen keeps room.
 */
export function LanguageOffer() {
  const chosen = useHasChosenLocale();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  if (chosen) return null;
  return (
    <div className="border-b border-brand-100 bg-brand-50 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-4 py-0.5 text-sm text-slate-800">
        <p>
          <span lang="ne-NP" className="font-chrome">
            {LANGUAGE_NE}
          </span>{" "}
          · <span lang="en">Language</span>
        </p>
        <LanguageSwitch locale={locale} onChange={switchLocale} />
      </div>
    </div>
  );
}
