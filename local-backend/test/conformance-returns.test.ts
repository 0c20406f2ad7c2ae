// Convex checks a function's `returns` validator before its transaction commits: a mutation whose
// result the validator refuses fails and none of its writes remain (a nested one's writes roll back
// with it, and its caller may catch the error and commit its own).
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Backend } from "../server.ts";
import { closeTestBackends, newClient, startTestBackend } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

it("a mutation whose result fails its returns validator keeps none of its writes", async () => {
  await expect(
    http.mutation(anyApi.returns.insertAndReturn, { name: "bad-http", bad: true }),
  ).rejects.toThrow(/Return value validation failed|ReturnsValidationError/);
  expect(await http.query(anyApi.returns.countersNamed, { prefix: "bad-http" })).toEqual([]);
  await expect(
    http.mutation(anyApi.returns.insertAndReturn, { name: "good-http", bad: false }),
  ).resolves.toBe("ok");
  expect(await http.query(anyApi.returns.countersNamed, { prefix: "good-http" })).toEqual([
    "good-http",
  ]);
});

it("over the sync protocol too, and the failed mutation is not answered with a value on resend", async () => {
  const client = newClient(backend.url);
  try {
    await expect(
      client.mutation(anyApi.returns.insertAndReturn, { name: "bad-sync", bad: true }),
    ).rejects.toThrow(/Return value validation failed|ReturnsValidationError/);
    expect(await client.query(anyApi.returns.countersNamed, { prefix: "bad-sync" })).toEqual([]);
  } finally {
    await client.close();
  }
});

it("a nested mutation's refused result rolls back its writes only; the caller's commit", async () => {
  await expect(http.mutation(anyApi.returns.outerCatchesNested, { name: "nest" })).resolves.toBe(
    "caught",
  );
  expect(await http.query(anyApi.returns.countersNamed, { prefix: "nest" })).toEqual([
    "nest-outer",
  ]);
});
