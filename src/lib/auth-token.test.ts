import { describe, expect, test } from "vitest";
import { sessionOfToken, userOfToken } from "@/lib/auth-token";

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const jwt = (payload: object) => `${b64url("{}")}.${b64url(JSON.stringify(payload))}.sig`;

describe("the user and session an auth token names", () => {
  test("are read from the token's subject", () => {
    expect(sessionOfToken(jwt({ sub: "user123|session456" }))).toBe("session456");
    expect(userOfToken(jwt({ sub: "user123|session456" }))).toBe("user123");
  });

  test("no token, no subject, half a subject or a malformed token name nobody", () => {
    for (const token of [null, jwt({}), jwt({ sub: "user123" }), "not a token", "a.%%%.c"]) {
      expect(sessionOfToken(token)).toBeNull();
      expect(userOfToken(token)).toBeNull();
    }
  });
});
