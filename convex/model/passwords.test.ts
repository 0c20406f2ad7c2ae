import { Scrypt } from "lucia";
import { describe, expect, test } from "vitest";
import {
  PASSWORD_HASH,
  UNMATCHABLE_HASH,
  hashPassword,
  needsRehash,
  verifyPassword,
} from "./passwords";

describe("password hashes", () => {
  test("say their algorithm and iterations, carry a random salt, and verify the password only", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsE", a)).toBe(false);
    expect(needsRehash(a)).toBe(false);
  }, 60_000);

  test("fewer iterations than today's still verify and ask for a rehash", async () => {
    const salt = new Uint8Array(PASSWORD_HASH.saltBytes).fill(7);
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode("old one"),
      "PBKDF2",
      false,
      ["deriveBits"],
    );
    const bits = new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: "PBKDF2", hash: "SHA-256", salt, iterations: 1000 },
        key,
        256,
      ),
    );
    const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u)).replace(/=+$/, "");
    const weak = `$pbkdf2-sha256$i=1000$${b64(salt)}$${b64(bits)}`;
    expect(await verifyPassword("old one", weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
  });

  test("lucia's scrypt hashes from before still verify and ask for a rehash", async () => {
    const legacy = await new Scrypt().hash("correct horse");
    expect(await verifyPassword("correct horse", legacy)).toBe(true);
    expect(await verifyPassword("wrong horse", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  }, 60_000);

  test("malformed hashes and the unmatchable one verify nothing", async () => {
    for (const hash of ["", "$pbkdf2-sha256$i=abc$AAAA$AAAA", "$pbkdf2-sha256$i=10$!!$??", "x:y"])
      expect(await verifyPassword("", hash)).toBe(false);
    expect(await verifyPassword("", UNMATCHABLE_HASH)).toBe(false);
    expect(needsRehash(UNMATCHABLE_HASH)).toBe(false);
  }, 60_000);
});
