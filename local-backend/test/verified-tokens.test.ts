// AuthConfigVerifier remembers tokens that verified (auth-config.ts): a repeat skips the signature
// check, never the time claims, the providers of the current modules or a replaced key set.
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { AuthConfigVerifier, type AuthProvider } from "../auth-config.ts";

const SITE = "http://127.0.0.1:4141";
let privateKey: CryptoKey;
let ownJwks: string;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  ownJwks = JSON.stringify({
    keys: [{ ...(await exportJWK(pair.publicKey)), kid: "own", alg: "RS256", use: "sig" }],
  });
});

const own: AuthProvider[] = [{ type: "oidc", domain: SITE, applicationID: "convex" }];

/** A verifier whose clock the test sets (ms), over the given providers. */
function verifierAt(clock: { now: number }, providers: { current: AuthProvider[] }) {
  const verifier = new AuthConfigVerifier({
    providers: () => Promise.resolve(providers.current),
    siteUrl: () => SITE,
    ownJwks,
  });
  Object.assign(verifier, { now: () => clock.now });
  return verifier;
}

const token = (subject: string, issuedAtSec: number, expiresAtSec: number) =>
  new SignJWT({ sub: subject, name: "Ram" })
    .setProtectedHeader({ alg: "RS256", kid: "own" })
    .setIssuer(SITE)
    .setAudience("convex")
    .setIssuedAt(issuedAtSec)
    .setExpirationTime(expiresAtSec)
    .sign(privateKey);

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
  );

describe("a token verified before", () => {
  it("is answered without its signature check, as a fresh copy each time", async () => {
    const start = Date.now();
    const clock = { now: start };
    const verifier = verifierAt(clock, { current: own });
    const seconds = Math.floor(start / 1000);
    const first = await token("user|1", seconds, seconds + 600);
    const identity = await verifier.verify(first);
    expect(identity).toMatchObject({ subject: "user|1", name: "Ram" });
    Object.assign(identity, { subject: "changed" });
    // With no key left to check a signature, only a remembered token still verifies.
    Object.assign(verifier, { ownKeys: { keys: [] } });
    expect(await verifier.verify(first)).toMatchObject({ subject: "user|1", name: "Ram" });
    const other = await token("user|2", seconds, seconds + 600);
    expect(await refusal(verifier.verify(other))).toMatchObject({ code: "Unauthenticated" });
  });

  it("is refused once it expires, with the text a fresh check gives", async () => {
    const start = Date.now();
    const clock = { now: start };
    const verifier = verifierAt(clock, { current: own });
    const seconds = Math.floor(start / 1000);
    const short = await token("user|3", seconds, seconds + 60);
    expect(await verifier.verify(short)).toMatchObject({ subject: "user|3" });
    clock.now = (seconds + 59) * 1000;
    expect(await verifier.verify(short)).toMatchObject({ subject: "user|3" });
    clock.now = (seconds + 60) * 1000;
    const late = await refusal(verifier.verify(short));
    const fresh = await refusal(verifierAt(clock, { current: own }).verify(short));
    expect(late).toEqual(fresh);
    expect(late).toMatchObject({ code: "Unauthenticated" });
  });

  it("is checked again against the providers of new modules", async () => {
    const clock = { now: Date.now() };
    const providers = { current: own };
    const verifier = verifierAt(clock, providers);
    const seconds = Math.floor(clock.now / 1000);
    const t = await token("user|4", seconds, seconds + 600);
    expect(await verifier.verify(t)).toMatchObject({ subject: "user|4" });
    providers.current = [
      { type: "oidc", domain: "https://elsewhere.example", applicationID: "convex" },
    ];
    expect(await refusal(verifier.verify(t))).toMatchObject({ code: "NoAuthProvider" });
  });
});
