/**
 * Password hashes: PBKDF2-HMAC-SHA-256 through Web Crypto, which Convex's default runtime (and Node,
 * and every browser) runs natively and asynchronously, so a sign-in does not hold the JavaScript
 * thread for its hashing.
 *
 * A hash says how it was made, `$pbkdf2-sha256$i=<iterations>$<salt>$<key>` (salt and key in
 * unpadded base64), so the iteration count can be raised later: `needsRehash` tells a sign-in to
 * store a new hash. Hashes from before (lucia's Scrypt, `<salt hex>:<key hex>`, pure JavaScript that
 * held the thread ~0.5 s) still verify and are replaced at the account's next sign-in.
 */
import { Scrypt } from "lucia";

export const PASSWORD_HASH = {
  algorithm: "pbkdf2-sha256",
  /** OWASP's Password Storage Cheat Sheet (2023) for PBKDF2-HMAC-SHA-256. */
  iterations: 600_000,
  saltBytes: 16,
  keyBytes: 32,
} as const;

const PREFIX = `$${PASSWORD_HASH.algorithm}$`;
const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function derive(password: string, salt: Uint8Array, iterations: number) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    PASSWORD_HASH.keyBytes * 8,
  );
  return new Uint8Array(bits);
}

function format(iterations: number, salt: Uint8Array, key: Uint8Array): string {
  return `${PREFIX}i=${iterations}$${toBase64(salt)}$${toBase64(key)}`;
}

type Parsed = { iterations: number; salt: Uint8Array; key: Uint8Array };

function parse(hash: string): Parsed | null {
  if (!hash.startsWith(PREFIX)) return null;
  const [params, salt, key] = hash.slice(PREFIX.length).split("$");
  const iterations = Number(/^i=(\d{1,9})$/.exec(params ?? "")?.[1]);
  const saltBytes = fromBase64(salt ?? "");
  const keyBytes = fromBase64(key ?? "");
  if (!Number.isSafeInteger(iterations) || iterations < 1 || !saltBytes || !keyBytes) return null;
  if (keyBytes.length !== PASSWORD_HASH.keyBytes) return null;
  return { iterations, salt: saltBytes, key: keyBytes };
}

/** Compares in time that depends only on the lengths. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(PASSWORD_HASH.saltBytes));
  return format(
    PASSWORD_HASH.iterations,
    salt,
    await derive(password, salt, PASSWORD_HASH.iterations),
  );
}

const LEGACY_SCRYPT = /^[0-9a-f]{32}:[0-9a-f]{128}$/;

/** True when `password` is the one `hash` was made from; false for a hash in no known format. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (parsed !== null) {
    return sameBytes(await derive(password, parsed.salt, parsed.iterations), parsed.key);
  }
  if (LEGACY_SCRYPT.test(hash)) return await new Scrypt().verify(hash, password);
  return false;
}

/** True when `hash` is not made as hashPassword makes hashes today (older scheme, fewer iterations). */
export function needsRehash(hash: string): boolean {
  const parsed = parse(hash);
  return parsed === null || parsed.iterations < PASSWORD_HASH.iterations;
}

/**
 * A well-formed hash no password matches in practice: verifying against it costs what verifying a
 * real one costs, so "no such account" answers as slowly as "wrong password".
 */
export const UNMATCHABLE_HASH = format(
  PASSWORD_HASH.iterations,
  new Uint8Array(PASSWORD_HASH.saltBytes),
  new Uint8Array(PASSWORD_HASH.keyBytes),
);
