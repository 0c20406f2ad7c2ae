import { afterEach, describe, expect, it } from "vitest";
import {
  LOCALE_STORAGE_KEY,
  getLocale,
  hasChosenLocale,
  pickLocale,
  setLocale,
} from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

afterEach(() => {
  setLocale("en");
  localStorage.clear();
});

describe("locale", () => {
  it("picks the first of the browser's languages it has", () => {
    expect(pickLocale(["ne-NP", "en-US"])).toBe("ne-NP");
    expect(pickLocale(["ne"])).toBe("ne-NP");
    expect(pickLocale(["hi-IN", "en-GB", "ne"])).toBe("en");
    expect(pickLocale(["de-DE"])).toBe("en");
    expect(pickLocale([])).toBe("en");
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
