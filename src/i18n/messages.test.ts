import { describe, expect, it } from "vitest";

// Every catalogue file, read as data: a message missing in one language must fail here rather than
// fall back to English at run time.
const files = import.meta.glob<Record<string, unknown>>("./messages/*/*.json", {
  eager: true,
  import: "default",
});
const [settings] = Object.values(
  import.meta.glob<{ locales: string[]; "plugin.inlang.messageFormat": { pathPattern: string[] } }>(
    "../../project.inlang/settings.json",
    { eager: true, import: "default" },
  ),
);
const areas = [...new Set(Object.keys(files).map((path) => path.split("/")[2]))].sort();

type Catalogue = Record<string, string>;
function catalogue(area: string, locale: string): Catalogue {
  const raw = { ...files[`./messages/${area}/${locale}.json`] };
  delete raw.$schema;
  for (const [key, value] of Object.entries(raw))
    if (typeof value !== "string") throw new Error(`${area}/${locale}: ${key} is not a string`);
  return raw as Catalogue;
}
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((p) => p[1]).sort();

/** Nepali messages that are rightly the same as the English ones (names, symbols). */
const SAME_IN_BOTH = new Set(["language_en", "language_ne", "list_separator", "testimonial_by"]);

describe("message catalogues", () => {
  it("lists every area in the inlang project, for both languages", () => {
    const patterns = settings["plugin.inlang.messageFormat"].pathPattern;
    expect(patterns.toSorted()).toEqual(
      areas.map((a) => `./src/i18n/messages/${a}/{locale}.json`).toSorted(),
    );
    expect(settings.locales).toEqual(["en", "ne-NP"]);
    expect(Object.keys(files)).toHaveLength(areas.length * 2);
  });

  it.each(areas)("%s: every English message has a Nepali translation and back", (area) => {
    const en = catalogue(area, "en");
    const ne = catalogue(area, "ne-NP");
    expect(Object.keys(ne).toSorted(), `keys of ${area}`).toEqual(Object.keys(en).toSorted());
    for (const key of Object.keys(en)) {
      expect(ne[key].trim(), `${area}: ${key} is empty in Nepali`).not.toBe("");
      expect(placeholders(ne[key]), `${area}: ${key} placeholders`).toEqual(placeholders(en[key]));
      if (!SAME_IN_BOTH.has(key))
        expect(ne[key], `${area}: ${key} is not translated`).not.toBe(en[key]);
    }
  });

  it("keeps keys unique across areas", () => {
    const seen = new Map<string, string>();
    for (const area of areas)
      for (const key of Object.keys(catalogue(area, "en"))) {
        expect(seen.get(key), `${key} is in ${seen.get(key)} and ${area}`).toBeUndefined();
        seen.set(key, area);
      }
  });
});
