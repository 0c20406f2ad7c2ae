/**
 * The language a visit starts in: the device's stored choice, else the first of the browser's
 * languages the app has ("ne", "ne-NP" → नेपाली; "en-*" → English), else English. Self-contained
 * (no imports, no outer names): the built index.html runs its source too, to preload the fonts of
 * that language before the app's JavaScript has loaded (scripts/vite-route-preload.ts).
 */
export function startingLocale(
  stored: string | null,
  languages: readonly string[],
): "en" | "ne-NP" {
  if (stored === "en" || stored === "ne-NP") return stored;
  for (const tag of languages) {
    const language = tag.toLowerCase().split("-")[0];
    if (language === "ne") return "ne-NP";
    if (language === "en") return "en";
  }
  return "en";
}

/** Where the device keeps its chosen language (localStorage). */
export const LOCALE_STORAGE_KEY = "gharsewa.locale";
