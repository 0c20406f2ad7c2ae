import { describe, expect, it } from "vitest";
import { DEVANAGARI_CHROME_TEXT } from "@/i18n/devanagari-chrome";

const english = import.meta.glob<Record<string, string>>("./messages/*/en.json", {
  eager: true,
  import: "default",
});
const devanagari = (text: string) => text.match(/[\u0900-\u097f]/g) ?? [];

describe("the Devanagari chrome font", () => {
  it("has every Devanagari letter an English page's messages show", () => {
    const shown = Object.values(english).flatMap((messages) =>
      Object.values(messages).flatMap((text) => devanagari(String(text))),
    );
    expect(shown.length).toBeGreaterThan(0);
    const missing = [...new Set(shown)].filter(
      (letter) => !DEVANAGARI_CHROME_TEXT.includes(letter),
    );
    expect(missing).toEqual([]);
  });
});
