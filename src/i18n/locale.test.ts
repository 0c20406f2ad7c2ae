import { afterEach, describe, expect, it } from "vitest";
import { LOCALE_STORAGE_KEY, getLocale, hasChosenLocale, setLocale } from "@/i18n/locale";
import { startingLocale } from "@/i18n/starting-locale";
import { m } from "@/i18n/paraglide/messages";

afterEach(() => {
  setLocale("en");
  localStorage.clear();
});

describe("locale", () => {
  it("starts in the first of the browser's languages it has", () => {
    expect(startingLocale(null, ["ne-NP", "en-US"])).toBe("ne-NP");
    expect(startingLocale(null, ["ne"])).toBe("ne-NP");
    expect(startingLocale(null, ["hi-IN", "en-GB", "ne"])).toBe("en");
    expect(startingLocale(null, ["de-DE"])).toBe("en");
    expect(startingLocale(null, [])).toBe("en");
  });

  it("starts in the device's stored choice over the browser's, ignoring an unknown one", () => {
    expect(startingLocale("en", ["ne-NP"])).toBe("en");
    expect(startingLocale("ne-NP", ["en-US"])).toBe("ne-NP");
    expect(startingLocale("fr", ["ne-NP"])).toBe("ne-NP");
  });

  it("runs from its source alone, as the built index.html runs it", () => {
    const fromSource = new Function(
      `return (${String(startingLocale)})`,
    )() as typeof startingLocale;
    expect(fromSource(null, ["ne"])).toBe("ne-NP");
    expect(fromSource("en", ["ne"])).toBe("en");
  });

  it("remembers the choice on the device and sets <html lang>, title and messages", () => {
    expect(hasChosenLocale()).toBe(false);
    setLocale("ne-NP");
    expect(getLocale()).toBe("ne-NP");
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe("ne-NP");
    expect(hasChosenLocale()).toBe(true);
    expect(document.documentElement.lang).toBe("ne-NP");
    expect(document.title).toBe("घर सेवा — GharSewa");
    expect(m.nav_login()).toBe("लग इन");
    setLocale("en");
    expect(document.documentElement.lang).toBe("en");
    expect(m.nav_login()).toBe("Login");
  });
});
