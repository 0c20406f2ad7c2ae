/**
 * TOTP secrets at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from the deployment's
 * JWT_PRIVATE_KEY, which every deployment of @convex-dev/auth already holds as a secret. Whoever reads
 * that key can sign any admin's session token already, so a key of its own would guard nothing more,
 * and there is no new secret to configure. Replacing JWT_PRIVATE_KEY makes stored secrets unreadable:
 * admins then sign in with a recovery code and set up their authenticator again.
 */
// Convex's runtime has `process.env`; declared for this module only (see model/deployment.ts).
declare const process: { env: Record<string, string | undefined> };

const INFO = new TextEncoder().encode("gharsewa two-factor secret v1");
const IV_BYTES = 12;

async function secretKey(): Promise<CryptoKey> {
  const source = process.env.JWT_PRIVATE_KEY;
  if (source === undefined) throw new Error("JWT_PRIVATE_KEY is not set");
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(source),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: INFO },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** "<iv>.<ciphertext>" in base64; `userId` is bound in as associated data (no swapping rows). */
export async function sealSecret(secret: Uint8Array<ArrayBuffer>, userId: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(userId) },
    await secretKey(),
    secret,
  );
  return `${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

/** The secret `sealSecret` sealed for `userId`, or null when it cannot be opened. */
export async function openSecret(sealed: string, userId: string): Promise<Uint8Array | null> {
  const [iv, body] = sealed.split(".");
  if (iv === undefined || body === undefined) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv), additionalData: new TextEncoder().encode(userId) },
      await secretKey(),
      fromBase64(body),
    );
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
