import { describe, expect, test } from "vitest";
import { isNepaliPhone, phoneRule, profileRules } from "./profile";

describe("phone numbers", () => {
  test.each(["9841234567", "9712345678", "+977 984-123-4567", "01-4123456", "061 523456"])(
    "%s is a Nepali number",
    (phone) => expect(isNepaliPhone(phone)).toBe(true),
  );
  test.each(["12345", "9641234567", "+1 555 123 4567", "98412345678", "call me"])(
    "%s is not",
    (phone) => expect(isNepaliPhone(phone)).toBe(false),
  );
  test("the rule says what to type", () => {
    const result = phoneRule.safeParse("12345");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/Nepali mobile/);
  });
});

describe("profile rules", () => {
  test("trim and bound the fields", () => {
    expect(profileRules.name.parse("  Sita Sharma ")).toBe("Sita Sharma");
    expect(profileRules.name.safeParse("S").error?.issues[0]?.message).toBe(
      "Full name must be at least 2 characters.",
    );
    expect(profileRules.address.safeParse("x".repeat(201)).success).toBe(false);
    expect(profileRules.zipCode.parse(" 44600 ")).toBe("44600");
    expect(profileRules.zipCode.safeParse("4").success).toBe(false);
  });
});
