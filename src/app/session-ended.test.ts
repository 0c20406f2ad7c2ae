import { describe, expect, test } from "vitest";
import { sessionOfToken } from "@/app/session-ended";

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const jwt = (payload: object) => `${b64url("{}")}.${b64url(JSON.stringify(payload))}.sig`;

describe("sessionOfToken", () => {
  test("reads the session from an auth token's subject", () => {
    expect(sessionOfToken(jwt({ sub: "user123|session456" }))).toBe("session456");
  });

  test("no token, no subject or a malformed token name no session", () => {
    expect(sessionOfToken(null)).toBeNull();
    expect(sessionOfToken(jwt({}))).toBeNull();
    expect(sessionOfToken("not a token")).toBeNull();
    expect(sessionOfToken("a.%%%.c")).toBeNull();
  });
});
