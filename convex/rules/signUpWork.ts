/**
 * The proof of work that pays for a sign-up draft (model/signUpDrafts.ts), as pure Web Crypto: the web
 * app solves it, the server checks it, and both read the numbers from here.
 *
 * A stamp is `<issuedAt>:<random>:<nonce>`; it is solved when PBKDF2-HMAC-SHA-256 of the stamp has
 * `bits` leading zero bits. PBKDF2 rather than one SHA-256 per try: a browser runs each deriveBits
 * natively, so a phone pays about what a flooder's native code pays per try (one SHA-256 per call
 * would be mostly the call's overhead in a browser, and nearly free in native code). The server
 * checks a stamp with a single try (~1 ms).
 */

export const SIGN_UP_WORK = {
  /** Expected tries: 2^bits. */
  bits: 8,
  /** PBKDF2 iterations per try: 2^8 x 2000 ≈ 0.5 M iterations, ~0.2 s on a laptop core, ~0.3-1 s on a cheap phone. */
  iterations: 2000,
  /** A stamp is accepted this long after (and before, for a fast clock) its issuedAt: bounds work done in advance. */
  maxAgeMs: 10 * 60 * 1000,
  /** Tries run side by side (browsers and Node run Web Crypto on a thread pool). */
  parallel: 4,
} as const;

const SALT = new TextEncoder().encode("gharsewa sign-up draft");
const STAMP = /^(\d{13}):([0-9a-f]{32}):(\d{1,12})$/;

/** The leading zero bits of PBKDF2(stamp): the work a stamp proves. */
export async function stampWork(stamp: string): Promise<number> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(stamp),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: SALT, iterations: SIGN_UP_WORK.iterations },
    key,
    32,
  );
  const word = new DataView(bits).getUint32(0);
  return word === 0 ? 32 : Math.clz32(word);
}

/** The time a well-formed stamp was issued at, or null when it is not a stamp. */
export function stampIssuedAt(stamp: string): number | null {
  const match = STAMP.exec(stamp);
  return match === null ? null : Number(match[1]);
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}

/** Finds a stamp issued at `issuedAt` (the server's clock, when the client's is off) that proves the work. */
export async function solveStamp(issuedAt: number = Date.now()): Promise<string> {
  const prefix = `${Math.round(issuedAt)}:${randomHex(16)}:`;
  for (let nonce = 0; ; nonce += SIGN_UP_WORK.parallel) {
    const tries = Array.from({ length: SIGN_UP_WORK.parallel }, (_, i) => `${prefix}${nonce + i}`);
    const work = await Promise.all(tries.map(stampWork));
    const found = work.findIndex((w) => w >= SIGN_UP_WORK.bits);
    if (found !== -1) return tries[found];
  }
}
