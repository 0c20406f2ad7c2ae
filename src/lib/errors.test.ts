import { ConvexError } from "convex/values";
import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "@/i18n/locale";
import { errorMessage } from "@/lib/errors";

afterEach(() => setLocale("en"));

describe("errorMessage", () => {
  const taken = new ConvexError({ code: "EMAIL_TAKEN", message: "That email is already in use." });

  it("shows the server's message in English and the catalogue's words for its code in Nepali", () => {
    expect(errorMessage(taken, "fallback")).toBe("That email is already in use.");
    setLocale("ne-NP");
    expect(errorMessage(taken, "fallback")).toBe("यो इमेलको खाता पहिले नै छ।");
  });

  it("falls back for unknown codes in Nepali and for plain server errors", () => {
    setLocale("ne-NP");
    expect(errorMessage(new ConvexError({ code: "NEW_CODE", message: "English" }), "गडबड")).toBe(
      "गडबड",
    );
    expect(errorMessage(new Error("[Request ID: 1] Server Error"), "गडबड")).toBe("गडबड");
  });
});
