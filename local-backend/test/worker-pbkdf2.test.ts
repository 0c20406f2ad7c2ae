import { webcrypto } from "node:crypto";
import { describe, expect, test } from "vitest";
import { derivePbkdf2OnThisThread, freeSlotsOf, hashSlots } from "../engine/worker-pbkdf2.ts";

/** The two methods of Node's SubtleCrypto in an object of their own, patched; Node's stays as it is. */
function patched(): webcrypto.SubtleCrypto {
  const subtle = {
    importKey: webcrypto.subtle.importKey.bind(webcrypto.subtle),
    deriveBits: webcrypto.subtle.deriveBits.bind(webcrypto.subtle),
  } as webcrypto.SubtleCrypto;
  derivePbkdf2OnThisThread(subtle);
  return subtle;
}

async function pbkdf2(subtle: webcrypto.SubtleCrypto, hash: string, length: number) {
  const key = await subtle.importKey(
    "raw",
    new TextEncoder().encode("correct horse"),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const salt = new Uint8Array(16).fill(7);
  return new Uint8Array(
    await subtle.deriveBits({ name: "PBKDF2", hash, salt, iterations: 1000 }, key, length),
  );
}

describe("PBKDF2 on an action worker's own thread", () => {
  test.each(["SHA-1", "SHA-256", "SHA-512"])(
    "derives the bits Web Crypto derives (%s)",
    async (hash) => {
      expect(await pbkdf2(patched(), hash, 256)).toEqual(await pbkdf2(webcrypto.subtle, hash, 256));
    },
  );

  test("refuses what Web Crypto refuses: no iterations, a key not for deriving bits", async () => {
    const subtle = patched();
    const key = await subtle.importKey("raw", new Uint8Array(8), "PBKDF2", false, ["deriveKey"]);
    const salt = new Uint8Array(16);
    await expect(
      subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 1000 }, key, 256),
    ).rejects.toThrow();
    const usable = await subtle.importKey("raw", new Uint8Array(8), "PBKDF2", false, [
      "deriveBits",
    ]);
    await expect(
      subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 0 }, usable, 256),
    ).rejects.toThrow();
  });

  test("leaves other algorithms to Web Crypto", async () => {
    const subtle = patched();
    const key = await subtle.importKey("raw", new Uint8Array(32).fill(1), "HKDF", false, [
      "deriveBits",
    ]);
    const params = {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(8),
      info: new Uint8Array(),
    };
    const ours = new Uint8Array(await subtle.deriveBits(params, key, 128));
    const theirs = new Uint8Array(
      await webcrypto.subtle.deriveBits(
        params,
        await webcrypto.subtle.importKey("raw", new Uint8Array(32).fill(1), "HKDF", false, [
          "deriveBits",
        ]),
        128,
      ),
    );
    expect(ours).toEqual(theirs);
  });

  test("a hash takes a free slot and lets it go; a worker's slot is freed when it ends", async () => {
    const slots = hashSlots(2);
    const subtle = {
      importKey: webcrypto.subtle.importKey.bind(webcrypto.subtle),
      deriveBits: webcrypto.subtle.deriveBits.bind(webcrypto.subtle),
    } as webcrypto.SubtleCrypto;
    derivePbkdf2OnThisThread(subtle, slots, 7);
    // a worker stopped mid-hash holds slot 0
    slots[0] = 9;
    expect(await pbkdf2(subtle, "SHA-256", 256)).toEqual(
      await pbkdf2(webcrypto.subtle, "SHA-256", 256),
    );
    expect(Array.from(slots)).toEqual([9, 0]);
    freeSlotsOf(slots, 9);
    expect(Array.from(slots)).toEqual([0, 0]);
  });
});
