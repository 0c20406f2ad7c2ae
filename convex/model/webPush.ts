/**
 * Web Push with Web Crypto only (Convex's default runtime has ECDH, HKDF, AES-GCM and ECDSA):
 * message encryption per RFC 8291 (`aes128gcm`, RFC 8188) and VAPID per RFC 8292.
 */

const encoder = new TextEncoder();

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes base64url (padding optional); null when `text` is not base64url. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const b64 = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (b64.length % 4 === 1) return null;
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** An uncompressed P-256 point, as browsers give `p256dh` and VAPID public keys. */
export const P256_POINT_BYTES = 65;
export const AUTH_SECRET_BYTES = 16;
/** RFC 8188 record size: the whole message is one record, so it must fit. */
const RECORD_SIZE = 4096;
const TAG_BYTES = 16;

async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  bytes: number,
) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt, info },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/**
 * The content keys both sides derive (RFC 8291 §3.3-3.4): the sender from its ephemeral private key
 * and the browser's public key, the browser (or a test's push service stand-in) the other way round.
 */
export async function contentKeys(args: {
  ecdhSecret: Uint8Array<ArrayBuffer>;
  authSecret: Uint8Array<ArrayBuffer>;
  uaPublic: Uint8Array<ArrayBuffer>;
  asPublic: Uint8Array<ArrayBuffer>;
  salt: Uint8Array<ArrayBuffer>;
}) {
  const keyInfo = concat(encoder.encode("WebPush: info\0"), args.uaPublic, args.asPublic);
  const ikm = await hkdf(args.authSecret, args.ecdhSecret, keyInfo, 32);
  const [cek, nonce] = await Promise.all([
    hkdf(args.salt, ikm, encoder.encode("Content-Encoding: aes128gcm\0"), 16),
    hkdf(args.salt, ikm, encoder.encode("Content-Encoding: nonce\0"), 12),
  ]);
  return { cek, nonce };
}

export async function ecdh(privateKey: CryptoKey, publicPoint: Uint8Array<ArrayBuffer>) {
  const publicKey = await crypto.subtle.importKey(
    "raw",
    publicPoint,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const bits = await crypto.subtle.deriveBits({ name: "ECDH", public: publicKey }, privateKey, 256);
  return new Uint8Array(bits);
}

export type SubscriptionKeys = { p256dh: string; auth: string };

/** The keys of a subscription, or null when they are not a P-256 point and a 16-byte secret. */
export function decodeSubscriptionKeys(keys: SubscriptionKeys) {
  const uaPublic = base64UrlDecode(keys.p256dh);
  const authSecret = base64UrlDecode(keys.auth);
  if (uaPublic?.length !== P256_POINT_BYTES || uaPublic[0] !== 0x04) return null;
  if (authSecret?.length !== AUTH_SECRET_BYTES) return null;
  return { uaPublic: concat(uaPublic), authSecret: concat(authSecret) };
}

/** The `aes128gcm` body for `plaintext`: header (salt, rs, sender's key) and one record. */
export async function encryptPayload(keys: SubscriptionKeys, plaintext: string) {
  const decoded = decodeSubscriptionKeys(keys);
  if (decoded === null) throw new Error("The subscription's keys are not valid");
  const message = encoder.encode(plaintext);
  if (message.length + 1 + TAG_BYTES > RECORD_SIZE) throw new Error("Push payload too large");
  const sender = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  const asPublic = new Uint8Array(await crypto.subtle.exportKey("raw", sender.publicKey));
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const { cek, nonce } = await contentKeys({
    ecdhSecret: await ecdh(sender.privateKey, decoded.uaPublic),
    authSecret: decoded.authSecret,
    uaPublic: decoded.uaPublic,
    asPublic,
    salt,
  });
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  // 0x02: the last (and only) record's delimiter, no padding
  const record = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: nonce },
      key,
      concat(message, Uint8Array.of(2)),
    ),
  );
  const header = new Uint8Array(16 + 4 + 1);
  header.set(salt);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = asPublic.length;
  return concat(header, asPublic, record);
}

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** VAPID JWTs must expire within 24 hours (RFC 8292 §2); push services reject longer ones. */
const JWT_LIFETIME_S = 12 * 60 * 60;

/** `Authorization: vapid t=<JWT>, k=<public key>` for a push to `endpoint` (RFC 8292 §3). */
export async function vapidAuthorization(vapid: VapidKeys, endpoint: string, nowMs: number) {
  const point = base64UrlDecode(vapid.publicKey);
  const d = base64UrlDecode(vapid.privateKey);
  if (point?.length !== P256_POINT_BYTES || d?.length !== 32)
    throw new Error("VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY are not a P-256 key pair (base64url)");
  const key = await crypto.subtle.importKey(
    "jwk",
    {
      kty: "EC",
      crv: "P-256",
      x: base64UrlEncode(point.slice(1, 33)),
      y: base64UrlEncode(point.slice(33)),
      d: vapid.privateKey.replace(/=+$/, ""),
    },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  const json = (value: object) => base64UrlEncode(encoder.encode(JSON.stringify(value)));
  const unsigned = `${json({ typ: "JWT", alg: "ES256" })}.${json({
    aud: new URL(endpoint).origin,
    exp: Math.floor(nowMs / 1000) + JWT_LIFETIME_S,
    sub: vapid.subject,
  })}`;
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    encoder.encode(unsigned),
  );
  return `vapid t=${unsigned}.${base64UrlEncode(new Uint8Array(signature))}, k=${vapid.publicKey}`;
}

/** The POST a push service expects (RFC 8030 §5) for one encrypted message. */
export async function pushRequest(args: {
  endpoint: string;
  keys: SubscriptionKeys;
  payload: string;
  ttlSeconds: number;
  vapid: VapidKeys;
  nowMs: number;
}): Promise<{ headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }> {
  const body = await encryptPayload(args.keys, args.payload);
  return {
    headers: {
      Authorization: await vapidAuthorization(args.vapid, args.endpoint, args.nowMs),
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
      TTL: String(Math.max(0, Math.floor(args.ttlSeconds))),
      Urgency: "high",
    },
    body,
  };
}
