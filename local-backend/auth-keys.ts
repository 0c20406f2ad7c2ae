// Deployment secrets kept in the data directory.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import type { Identity } from "./engine/engine.ts";

export interface DeploymentSecrets {
  JWT_PRIVATE_KEY: string;
  JWKS: string;
  adminKey: string;
  /** Signs upload and file URLs (storage.ts). */
  storageSecret: string;
  /** Web Push's VAPID key pair (convex/model/push.ts), base64url as web-push generates them. */
  vapid: { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string };
}

/** Generates keys the way @convex-dev/auth's CLI does (RS256, PKCS8 with spaces, JWKS with use "sig"). */
async function generateAuthKeys(): Promise<{ JWT_PRIVATE_KEY: string; JWKS: string }> {
  const keys = await generateKeyPair("RS256", { extractable: true });
  const privateKey = await exportPKCS8(keys.privateKey);
  const publicKey = await exportJWK(keys.publicKey);
  return {
    JWT_PRIVATE_KEY: privateKey.trimEnd().replace(/\n/g, " "),
    JWKS: JSON.stringify({ keys: [{ use: "sig", ...publicKey }] }),
  };
}

/** A P-256 key pair: the public key as an uncompressed point, the private key as `d` (base64url). */
export async function generateVapidKeys(): Promise<DeploymentSecrets["vapid"]> {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
  ]);
  const publicKey = Buffer.from(await crypto.subtle.exportKey("raw", keys.publicKey));
  const { d } = await crypto.subtle.exportKey("jwk", keys.privateKey);
  return { VAPID_PUBLIC_KEY: publicKey.toString("base64url"), VAPID_PRIVATE_KEY: d! };
}

export async function loadOrCreateSecrets(dataDir: string): Promise<DeploymentSecrets> {
  const keysFile = path.join(dataDir, "auth-keys.json");
  let keys: { JWT_PRIVATE_KEY: string; JWKS: string };
  if (existsSync(keysFile)) keys = JSON.parse(readFileSync(keysFile, "utf8"));
  else {
    keys = await generateAuthKeys();
    writeFileSync(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
  }
  const adminKey = loadOrCreate(
    path.join(dataDir, "admin-key"),
    () => `local|${randomBytes(32).toString("hex")}`,
  );
  const storageSecret = loadOrCreate(path.join(dataDir, "storage-secret"), () =>
    randomBytes(32).toString("hex"),
  );
  const vapidFile = path.join(dataDir, "vapid-keys.json");
  if (!existsSync(vapidFile))
    writeFileSync(vapidFile, JSON.stringify(await generateVapidKeys(), null, 2), { mode: 0o600 });
  const vapid = JSON.parse(readFileSync(vapidFile, "utf8"));
  return { ...keys, adminKey, storageSecret, vapid };
}

function loadOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/** Compares a secret (admin key, URL signature) with a caller's guess in constant time. */
export function sameSecret(expected: string, given: string): boolean {
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Reads KEY=value lines (a .env.local-style file); missing file → {}. */
export function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const env: Record<string, string> = {};
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq < 1) continue;
    let value = line.slice(eq + 1).trim();
    if (/^(".*"|'.*')$/.test(value)) value = value.slice(1, -1);
    env[line.slice(0, eq).trim()] = value;
  }
  return env;
}

/** A user's token → the identity its auth provider vouches for (auth-config.ts); throws when refused. */
export type TokenVerifier = (token: string) => Promise<Identity>;
