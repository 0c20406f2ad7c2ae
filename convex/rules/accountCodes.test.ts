import { describe, expect, test } from "vitest";
import { mobileDigits, parseContact, typedAccountCode } from "./accountCodes";

describe("one-time codes and where they go", () => {
  test("a typed code counts only as its six digits, spaces around them trimmed", () => {
    expect(typedAccountCode(" 012345 ")).toBe("012345");
    for (const notACode of ["12345", "1234567", "12a456", "१२३४५६", "12 345", ""])
      expect(typedAccountCode(notACode)).toBeNull();
  });

  test("a contact is an email address, lowercased, or a Nepali mobile number however written", () => {
    expect(parseContact(" Sita@Example.NP ")).toEqual({ kind: "email", value: "sita@example.np" });
    expect(parseContact("+977 981-2345678")).toEqual({ kind: "phone", value: "9812345678" });
    for (const neither of ["sita@", "01-4412345", "12345", `${"a".repeat(250)}@x.np`])
      expect(parseContact(neither)).toBeNull();
  });

  test("only a mobile number can receive a code by SMS", () => {
    expect(mobileDigits("970-1234567")).toBe("9701234567");
    expect(mobileDigits("01-4412345")).toBeNull();
    expect(mobileDigits(undefined)).toBeNull();
  });
});
