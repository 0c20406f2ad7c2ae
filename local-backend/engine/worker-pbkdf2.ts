// Web Crypto's PBKDF2 in an action worker (action-worker.ts) runs on the worker's own thread, not in
// libuv's thread pool, and only while it holds one of the process's hash slots. libuv's pool is the
// process's, at the main thread's priority: a flood of sign-ins hashing passwords there took the CPU
// from queries and mutations as much as it left them. On the worker's thread (niced below the main
// thread) a hash gets the CPU the main thread leaves, and with half the cores' worth of slots the
// other half stays free for queries and mutations: more sign-ins wait in line instead. The hash is
// the same, and a known and an unknown account's sign-ins wait in the same line.
import { pbkdf2Sync, webcrypto } from "node:crypto";
import { availableParallelism } from "node:os";

type Subtle = webcrypto.SubtleCrypto;

const HASHES: Record<string, string> = {
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};

function bytesOf(data: unknown): Uint8Array | undefined {
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  return undefined;
}

const nameOf = (algorithm: unknown) =>
  typeof algorithm === "string"
    ? algorithm
    : ((algorithm as { name?: unknown } | null)?.name as string | undefined);

/** Hashes at once in the whole process: half the cores, at least one. */
export const HASH_SLOTS = Math.max(1, Math.floor(availableParallelism() / 2));

/** The slots every worker takes turns on: each cell holds its holder's thread id, or 0 when free. */
export function hashSlots(count = HASH_SLOTS): Int32Array {
  return new Int32Array(new SharedArrayBuffer(count * Int32Array.BYTES_PER_ELEMENT));
}

/** Waits (blocking this thread) until a slot is free and takes it for `threadId`. */
function takeSlot(slots: Int32Array, threadId: number): number {
  for (;;) {
    for (let i = 0; i < slots.length; i++)
      if (Atomics.compareExchange(slots, i, 0, threadId) === 0) return i;
    // woken by any slot let go (notify on cell 0); the timeout covers a slot let go between the scan
    // and this wait
    Atomics.wait(slots, 0, Atomics.load(slots, 0), 50);
  }
}

function letGo(slots: Int32Array, slot: number, threadId: number): void {
  if (Atomics.compareExchange(slots, slot, threadId, 0) === threadId) Atomics.notify(slots, 0);
}

/** A worker ended (a time limit may stop it mid-hash): the slot it held is free again. */
export function freeSlotsOf(slots: Int32Array, threadId: number): void {
  for (let i = 0; i < slots.length; i++) letGo(slots, i, threadId);
}

/**
 * Makes `subtle.deriveBits` with PBKDF2 hash on the calling thread, holding one of `slots` meanwhile
 * (as `threadId`); anything else is unchanged.
 */
export function derivePbkdf2OnThisThread(
  subtle: Subtle,
  slots: Int32Array = hashSlots(),
  threadId = 1,
): void {
  const importKey = subtle.importKey.bind(subtle);
  const deriveBits = subtle.deriveBits.bind(subtle) as (
    algorithm: unknown,
    baseKey: webcrypto.CryptoKey,
    length?: number | null,
  ) => Promise<ArrayBuffer>;
  // the password of each PBKDF2 key imported here (its CryptoKey cannot be exported)
  const passwords = new WeakMap<webcrypto.CryptoKey, Uint8Array>();

  Object.defineProperty(subtle, "importKey", {
    configurable: true,
    value: async (...args: Parameters<Subtle["importKey"]>) => {
      const key = await importKey(...args);
      const [format, keyData, algorithm] = args;
      const bytes = bytesOf(keyData);
      if (format === "raw" && nameOf(algorithm)?.toUpperCase() === "PBKDF2" && bytes)
        passwords.set(key, bytes);
      return key;
    },
  });

  Object.defineProperty(subtle, "deriveBits", {
    configurable: true,
    value: async (
      algorithm: unknown,
      baseKey: webcrypto.CryptoKey,
      length?: number | null,
    ): Promise<ArrayBuffer> => {
      const password = passwords.get(baseKey);
      const params = algorithm as {
        name?: string;
        hash?: string | { name?: string };
        salt?: unknown;
        iterations?: unknown;
      };
      const hash = HASHES[(nameOf(params.hash) ?? "").toUpperCase()];
      const salt = bytesOf(params.salt);
      const iterations = params.iterations;
      // anything unusual goes to Node's own, which refuses it as Web Crypto specifies
      if (
        password === undefined ||
        nameOf(algorithm)?.toUpperCase() !== "PBKDF2" ||
        !baseKey.usages.includes("deriveBits") ||
        hash === undefined ||
        salt === undefined ||
        typeof iterations !== "number" ||
        !Number.isSafeInteger(iterations) ||
        iterations < 1 ||
        typeof length !== "number" ||
        length <= 0 ||
        length % 8 !== 0
      )
        return await deriveBits(algorithm, baseKey, length);
      const slot = takeSlot(slots, threadId);
      let key: Buffer;
      try {
        key = pbkdf2Sync(password, salt, iterations, length / 8, hash);
      } finally {
        letGo(slots, slot, threadId);
      }
      return new Uint8Array(key).buffer;
    },
  });
}
