// convex/auth.config.ts is honoured as Convex does: a customJwt provider whose JWKS
// this test serves, an ES256 one with a data: URL, an OIDC provider whose discovery document this test
// serves, next to the deployment's own Convex Auth issuer. Checks and texts: crates/authentication,
// identity fields: crates/keybroker UserIdentity.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import type { Backend } from "../server.ts";
import { closeTestBackends, newClient, nextValue, signToken, startTestBackend } from "./helpers.ts";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

let backend: Backend;
let provider: Server;
let base: string;
let rsa: KeyPair;
let otherRsa: KeyPair;
let oidcKey: KeyPair;
let ec: KeyPair;
const fetched = { jwks: 0, discovery: 0, oidcJwks: 0 };

const jwksOf = async (key: KeyPair, kid: string, alg: string): Promise<{ keys: JWK[] }> => ({
  keys: [{ ...(await exportJWK(key.publicKey)), kid, alg, use: "sig" }],
});

beforeAll(async () => {
  [rsa, otherRsa, oidcKey, ec] = await Promise.all([
    generateKeyPair("RS256"),
    generateKeyPair("RS256"),
    generateKeyPair("RS256"),
    generateKeyPair("ES256"),
  ]);
  const jwks = await jwksOf(rsa, "k1", "RS256");
  const oidcJwks = await jwksOf(oidcKey, "oidc-1", "RS256");
  provider = createServer((req, res) => {
    const json = (body: unknown, type = "application/json") => {
      res.writeHead(200, { "Content-Type": type });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/custom/jwks.json") {
      fetched.jwks++;
      return json(jwks);
    }
    if (req.url === "/oidc/.well-known/openid-configuration") {
      fetched.discovery++;
      return json({
        issuer: `${base}/oidc`,
        jwks_uri: `${base}/oidc/jwks.json`,
        authorization_endpoint: `${base}/oidc/authorize`,
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (req.url === "/oidc/jwks.json") {
      fetched.oidcJwks++;
      return json(oidcJwks, "application/jwk-set+json");
    }
    if (req.url === "/text/jwks.json") return json(jwks, "text/plain");
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const ecJwks = await jwksOf(ec, "ec-1", "ES256");
  backend = await startTestBackend({
    env: {
      TEST_CUSTOM_JWT_ISSUER: `${base}/custom`,
      TEST_CUSTOM_JWKS_URL: `${base}/custom/jwks.json`,
      TEST_ES256_ISSUER: "https://es256.example",
      TEST_ES256_JWKS: `data:application/json;base64,${Buffer.from(JSON.stringify(ecJwks)).toString("base64")}`,
      TEST_OIDC_DOMAIN: `${base}/oidc`,
    },
  });
});
afterAll(async () => {
  await closeTestBackends();
  await new Promise((resolve) => provider.close(resolve));
});

async function sign(
  key: KeyPair,
  header: { alg: string; kid?: string },
  claims: JWTPayload,
  options: { expiresIn?: string | number; issuedAt?: number } = {},
) {
  return await new SignJWT(claims)
    .setProtectedHeader({ ...header, typ: "JWT" })
    .setIssuedAt(options.issuedAt)
    .setExpirationTime(options.expiresIn ?? "1h")
    .sign(key.privateKey);
}

const customToken = (claims: JWTPayload = {}, key = rsa, kid = "k1") =>
  sign(
    key,
    { alg: "RS256", kid },
    { iss: `${base}/custom`, aud: "fixture-app", sub: "user:8f", ...claims },
  );
const oidcToken = (claims: JWTPayload = {}) =>
  sign(
    oidcKey,
    { alg: "RS256", kid: "oidc-1" },
    { iss: `${base}/oidc`, aud: "fixture-oidc", sub: "oidc-user", ...claims },
  );

const identityWith = (token: string) => {
  const http = new ConvexHttpClient(backend.url);
  http.setAuth(token);
  return http.query(anyApi.identity.full, {}) as Promise<Record<string, unknown> | null>;
};

/** What the HTTP API answers a call made with `token`: 401 and Convex's code and message when refused. */
async function refusal(token: string): Promise<{ status: number; code: string; message: string }> {
  const res = await fetch(`${backend.url}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ path: "identity:full", args: {} }),
  });
  const body = (await res.json()) as { code: string; message: string };
  return { status: res.status, code: body.code, message: body.message };
}

describe("a customJwt provider", () => {
  it("accepts its tokens: tokenIdentifier is issuer|subject, nested claims are flattened with dots", async () => {
    const identity = await identityWith(
      await customToken({ email: "a@b.np", properties: { id: "123", favoriteColor: "red" } }),
    );
    expect(identity).toEqual({
      tokenIdentifier: `${base}/custom|user:8f`,
      issuer: `${base}/custom`,
      subject: "user:8f",
      email: "a@b.np",
      "properties.id": "123",
      "properties.favoriteColor": "red",
    });
  });

  it("fetches its JWKS once and keeps it", async () => {
    const before = fetched.jwks;
    for (let i = 0; i < 3; i++) await identityWith(await customToken({ sub: `u${i}` }));
    expect(fetched.jwks - before).toBe(0);
    expect(fetched.jwks).toBe(1);
  });

  it("a sync client signs in with one", async () => {
    const client = newClient(backend.url);
    try {
      client.setAuth(() => customToken({ sub: "sync-user" }));
      const identity = await nextValue<Record<string, unknown> | null>(
        client,
        anyApi.identity.full,
        {},
        (value) => value !== null,
      );
      expect(identity?.tokenIdentifier).toBe(`${base}/custom|sync-user`);
    } finally {
      await client.close();
    }
  });

  it("refuses a token for another audience, naming the configured providers", async () => {
    expect(await refusal(await customToken({ aud: "another-app" }))).toEqual({
      status: 401,
      code: "NoAuthProvider",
      message:
        "No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: " +
        `[OIDC(domain=${backend.siteUrl}, app_id=convex), CustomJWT(issuer=${base}/custom, app_id=fixture-app), ` +
        `CustomJWT(issuer=https://es256.example, app_id=none), OIDC(domain=${base}/oidc, app_id=fixture-oidc)]`,
    });
  });

  it("refuses a token signed by another key, an expired one and one issued in the future", async () => {
    expect(await refusal(await customToken({}, otherRsa))).toEqual({
      status: 401,
      code: "InvalidAuthHeader",
      message:
        "Could not decode token. The JWT's 'kid' (key ID) header is 'k1', does this key match any key in the provider's JWKS?",
    });
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(
      rsa,
      { alg: "RS256", kid: "k1" },
      { iss: `${base}/custom`, aud: "fixture-app", sub: "late" },
      { issuedAt: now - 7200, expiresIn: now - 60 },
    );
    expect(await refusal(expired)).toMatchObject({
      status: 401,
      code: "InvalidAuthHeader",
      message: expect.stringMatching(/^Could not validate token: /),
    });
    const future = await sign(
      rsa,
      { alg: "RS256", kid: "k1" },
      { iss: `${base}/custom`, aud: "fixture-app", sub: "early" },
      { issuedAt: now + 600, expiresIn: now + 3600 },
    );
    expect((await refusal(future)).message).toMatch(/^Could not validate token: /);
  });

  it("refuses a token of another algorithm than the provider's", async () => {
    const es = await sign(
      ec,
      { alg: "ES256", kid: "k1" },
      { iss: `${base}/custom`, aud: "fixture-app", sub: "x" },
    );
    expect((await refusal(es)).message).toBe(
      "Could not decode token. The JWT's 'kid' (key ID) header is 'k1', does this key match any key in the provider's JWKS?",
    );
  });

  it("ES256 with a data: URL JWKS and no applicationID accepts tokens of any audience", async () => {
    const token = await sign(
      ec,
      { alg: "ES256", kid: "ec-1" },
      { iss: "https://es256.example", aud: "whatever", sub: "ec-user", org: { role: "admin" } },
    );
    expect(await identityWith(token)).toEqual({
      tokenIdentifier: "https://es256.example|ec-user",
      issuer: "https://es256.example",
      subject: "ec-user",
      "org.role": "admin",
    });
  });
});

describe("an OIDC provider", () => {
  it("finds its keys through the discovery document and maps the standard claims", async () => {
    const identity = await identityWith(
      await oidcToken({
        name: "Sita Sharma",
        email: "sita@example.np",
        email_verified: true,
        picture: "https://example.np/sita.png",
        locale: "ne-NP",
        org_id: "org_1",
        nbf: Math.floor(Date.now() / 1000) - 10,
      }),
    );
    expect(identity).toEqual({
      tokenIdentifier: `${base}/oidc|oidc-user`,
      issuer: `${base}/oidc`,
      subject: "oidc-user",
      name: "Sita Sharma",
      email: "sita@example.np",
      emailVerified: true,
      pictureUrl: "https://example.np/sita.png",
      language: "ne-NP",
      org_id: "org_1",
    });
    await identityWith(await oidcToken({ sub: "again" }));
    expect(fetched).toMatchObject({ discovery: 1, oidcJwks: 1 });
  });

  it("refuses an expired token with Convex's text", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(
      oidcKey,
      { alg: "RS256", kid: "oidc-1" },
      { iss: `${base}/oidc`, aud: "fixture-oidc", sub: "late" },
      { issuedAt: now - 7200, expiresIn: now - 60 },
    );
    expect(await refusal(expired)).toEqual({
      status: 401,
      code: "Unauthenticated",
      message:
        "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.",
    });
  });
});

describe("the deployment's own Convex Auth issuer", () => {
  it("keeps working next to the configured providers", async () => {
    const token = await signToken(backend.dataDir, backend.siteUrl, "user|session");
    expect(await identityWith(token)).toEqual({
      tokenIdentifier: `${backend.siteUrl}|user|session`,
      issuer: backend.siteUrl,
      subject: "user|session",
    });
  });
});

describe("HTTP actions", () => {
  it("run with a token no provider verifies; ctx.auth.getUserIdentity() throws the reason", async () => {
    const res = await fetch(`${backend.siteUrl}/api/identity-or-error`, {
      headers: { Authorization: `Bearer ${await customToken({ aud: "another-app" })}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/^No auth provider found matching the given token/),
    });
    const ok = await fetch(`${backend.siteUrl}/api/identity-or-error`, {
      headers: { Authorization: `Bearer ${await customToken()}` },
    });
    expect(await ok.json()).toEqual({ subject: "user:8f" });
  });
});
