// The project's own convex/ (with @convex-dev/auth) loads and serves auth's HTTP routes.
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { solveStamp } from "../../convex/rules/signUpWork.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, newClient, nextValue, startTestBackend } from "./helpers.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend({ convexDir: "convex" });
});
afterAll(closeTestBackends);

it("serves @convex-dev/auth's JWKS and OpenID configuration from the generated keys", async () => {
  const jwks = (await (await fetch(`${backend.siteUrl}/.well-known/jwks.json`)).json()) as {
    keys: { use: string; kty: string }[];
  };
  expect(jwks.keys[0]).toMatchObject({ use: "sig", kty: "RSA" });
  const oidc = (await (
    await fetch(`${backend.siteUrl}/.well-known/openid-configuration`)
  ).json()) as { issuer: string };
  expect(oidc.issuer).toBe(backend.siteUrl);
});

it("runs auth:signIn over HTTP (as the browser's token refresh does) and returns errors in the 560 shape", async () => {
  const http = new ConvexHttpClient(backend.url, { logger: false });
  await expect(
    http.action(anyApi.auth.signIn, { refreshToken: "nonexistent|token" }),
  ).resolves.toMatchObject({ tokens: null });
  const res = await fetch(`${backend.url}/api/action`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Convex-Client": "npm-1.48.0" },
    body: JSON.stringify({ path: "auth:nope", format: "convex_encoded_json", args: [{}] }),
  });
  expect(res.status).toBe(560);
  expect(await res.json()).toMatchObject({
    status: "error",
    errorMessage: expect.stringContaining("auth:nope"),
  });
});

it("a subscriber's users:viewer turns null as soon as auth:signOut deletes the session its token names", async () => {
  const client = newClient(backend.url);
  const { draft } = (await client.mutation(anyApi.signUpDrafts.create, {
    stamp: await solveStamp(),
  })) as { draft: string };
  const params = {
    flow: "signUp",
    draft,
    email: "subscriber@example.np",
    password: "correct horse",
    name: "Hari Bahadur",
    phone: "9841000000",
    address: "Ward 3, Lakeside",
    zipCode: "33700",
  };
  const { tokens } = (await client.action(anyApi.auth.signIn, {
    provider: "customer",
    params,
  })) as { tokens: { token: string } };
  client.setAuth(async () => tokens.token);
  await nextValue(
    client,
    anyApi.users.viewer,
    {},
    (v: { email: string } | null) => v?.email === "subscriber@example.np",
  );
  const signedOut = nextValue(client, anyApi.users.viewer, {}, (v) => v === null);
  await client.action(anyApi.auth.signOut, {});
  await expect(signedOut).resolves.toBeNull(); // the same, still unexpired JWT: its session is what ended
  await client.close();
});
