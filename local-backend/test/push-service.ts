// A push service stand-in on loopback for tests: it hands out subscriptions the way a browser and
// its push service do (a P-256 key pair and auth secret per subscription, an endpoint URL), and
// accepts message POSTs as RFC 8030 describes, checking VAPID (RFC 8292: ES256 JWT, aud = the
// endpoint's origin, exp within 24 hours) and decrypting the aes128gcm body (RFC 8291, RFC 8188)
// with node:crypto — independently of the sender's Web Crypto code.
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = {
  subscriptionId: string;
  at: number;
  ttl: number;
  urgency: string | null;
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted message, as the browser hands it to the service worker. */
  payload: string;
};

type Subscription = {
  id: string;
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  gone: boolean;
};

const b64url = (buf: Buffer) => buf.toString("base64url");

/** A refusal the stand-in answers with, as a push service would. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The JWT and key of `Authorization: vapid t=…, k=…`, checked; its claims. */
function checkVapid(header: string | undefined, origin: string, now: number) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Refused(401, "no vapid Authorization");
  const [, jwt, k] = match;
  const [h, p, s] = jwt.split(".");
  const head = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
  if (head.alg !== "ES256") throw new Refused(401, `alg ${head.alg}`);
  const point = Buffer.from(k, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Refused(401, "k is not a P-256 point");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: b64url(point.subarray(1, 33)),
      y: b64url(point.subarray(33)),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(s, "base64url"),
  );
  if (!signed) throw new Refused(403, "bad JWT signature");
  const claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
  if (claims.aud !== origin) throw new Refused(403, `aud ${claims.aud} is not ${origin}`);
  const seconds = now / 1000;
  if (!(claims.exp > seconds && claims.exp <= seconds + 24 * 3600))
    throw new Refused(403, "exp not within 24 hours");
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Refused(403, "sub is no contact");
  return { ...claims, k } as Received["claims"] & { k: string };
}

/** RFC 8291 §3.4 with RFC 8188's header: the plaintext of a one-record aes128gcm body. */
function decrypt(body: Buffer, sub: Subscription): string {
  if (body.length < 21) throw new Refused(400, "body shorter than the header");
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65 || record.length > rs || record.length < 17)
    throw new Refused(400, "malformed aes128gcm header");
  const uaPublic = sub.ecdh.getPublicKey();
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const prkKey = createHmac("sha256", sub.auth).update(ecdhSecret).digest();
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = createHmac("sha256", prkKey)
    .update(Buffer.concat([keyInfo, Buffer.of(1)]))
    .digest();
  const derive = (info: string, length: number) =>
    Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from(info), length));
  const cek = derive("Content-Encoding: aes128gcm\0", 16);
  const nonce = derive("Content-Encoding: nonce\0", 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  let plain: Buffer;
  try {
    plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ]);
  } catch {
    throw new Refused(400, "record does not decrypt");
  }
  // padding: the delimiter 0x02 (last record), then zeros
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Refused(400, "no last-record delimiter");
  return plain.subarray(0, end).toString("utf8");
}

export async function startPushService() {
  const subscriptions = new Map<string, Subscription>();
  const received: Received[] = [];
  const refusals: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  /** Statuses to answer the next POSTs with instead of 201 (after checking them). */
  const scripted: { status: number; headers?: Record<string, string> }[] = [];

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const now = Date.now();
    try {
      const sub = subscriptions.get(/^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1] ?? "");
      if (req.method !== "POST") throw new Refused(405, "POST only");
      if (sub === undefined) throw new Refused(404, "no such subscription");
      if (sub.gone) throw new Refused(410, "subscription expired");
      const claims = checkVapid(req.headers.authorization, origin, now);
      if (req.headers["content-encoding"] !== "aes128gcm")
        throw new Refused(415, `Content-Encoding ${req.headers["content-encoding"]}`);
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) throw new Refused(400, "TTL missing");
      const payload = decrypt(Buffer.concat(chunks), sub);
      const answer = scripted.shift() ?? { status: 201 };
      if (answer.status === 201) {
        received.push({
          subscriptionId: sub.id,
          at: now,
          ttl,
          urgency: (req.headers.urgency as string | undefined) ?? null,
          claims: { aud: claims.aud, exp: claims.exp, sub: claims.sub },
          payload,
        });
        for (const w of waiters.filter((w) => received.length >= w.count)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      res.writeHead(answer.status, answer.headers).end();
    } catch (error) {
      // anything unreadable (a JWT that is not JSON, say) is a bad request
      const refused = error instanceof Refused ? error : new Refused(400, String(error));
      refusals.push(`${refused.status} ${refused.message}`);
      res.writeHead(refused.status, { "Content-Type": "text/plain" }).end(refused.message);
    }
  }

  return {
    origin,
    received,
    /** Why POSTs were refused (status and reason), in order. */
    refusals,
    /** A new subscription, as `PushSubscription.toJSON()` gives it to the app. */
    subscribe() {
      const id = randomBytes(12).toString("base64url");
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const sub: Subscription = { id, ecdh, auth: randomBytes(16), gone: false };
      subscriptions.set(id, sub);
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(sub.auth) },
      };
    },
    /** From now on the service answers 410 Gone for this subscription (the user revoked it). */
    expire(id: string) {
      subscriptions.get(id)!.gone = true;
    },
    /** The next POSTs that pass the checks get these answers instead of 201. */
    answerNext(...answers: { status: number; headers?: Record<string, string> }[]) {
      scripted.push(...answers);
    },
    /** Resolves once `count` messages in all have been accepted. */
    waitForMessages(count: number) {
      return received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type PushService = Awaited<ReturnType<typeof startPushService>>;
