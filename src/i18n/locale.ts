/**
 * The interface language: chosen per device (localStorage), for signed-in users also in their
 * profile (app/locale-profile-sync.tsx), on a first visit picked from the browser's languages.
 * Paraglide's message functions read it through overwriteGetLocale; `<html lang>` follows it.
 */
import { m } from "@/i18n/paraglide/messages";
import { createStore } from "@/lib/external-store";
import { LOCALE_STORAGE_KEY, startingLocale } from "@/i18n/starting-locale";
import { isLocale, locales, overwriteGetLocale, type Locale } from "@/i18n/paraglide/runtime";

export { locales, LOCALE_STORAGE_KEY, type Locale };

function storedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(LOCALE_STORAGE_KEY);
    return value !== null && isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

const current = createStore<Locale>(startingLocale(storedLocale(), browserLanguages()));

overwriteGetLocale(current.get);
applyToDocument(current.get());

/** `<html lang>`, the title and the meta description follow the language. */
function applyToDocument(locale: Locale) {
  if (typeof document === "undefined") return;
  document.documentElement.lang = locale;
  document.title = m.meta_title({}, { locale });
  document
    .querySelector('meta[name="description"]')
    ?.setAttribute("content", m.meta_description({}, { locale }));
}

export function getLocale(): Locale {
  return current.get();
}

/** Whether this device has chosen a language (the first screen offers the choice until it has). */
export function hasChosenLocale(): boolean {
  return storedLocale() !== null;
}

/** Switches the interface language and remembers it on this device. */
export function setLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode without storage: the choice lasts for this page.
  }
  if (locale !== current.get()) applyToDocument(locale);
  current.set(locale);
}

/** The current language; the component re-renders when it changes. */
export function useLocale(): Locale {
  return current.useValue();
}

/** Whether the device has a stored choice, re-read when the language is set. */
export function useHasChosenLocale(): boolean {
  return current.useValue(hasChosenLocale);
}
