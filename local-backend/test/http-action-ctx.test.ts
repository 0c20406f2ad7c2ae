// The HTTP action runner (Engine.runHttpAction, in the action pool) and the site port's request path (site.ts): the ctx an
// HTTP action gets is Convex's, each member working as the caller, and the port's own answers hold.
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Backend } from "../server.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  rawRequest,
  signToken,
  startTestBackend,
} from "./helpers.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(closeTestBackends);

const actionCtx = (name: string, authorization?: string) =>
  fetch(`${backend.siteUrl}/api/action-ctx?name=${name}`, {
    method: "POST",
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });

describe("an HTTP action's ctx", () => {
  it("has Convex's members, each running as the caller", async () => {
    const log = vi.spyOn(console, "log");
    const token = await signToken(backend.dataDir, backend.siteUrl, "ctx-user");
    const res = await actionCtx("ctx-a", `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      members: [
        "auth",
        "meta",
        "runAction",
        "runMutation",
        "runQuery",
        "scheduler",
        "storage",
        "vectorSearch",
      ],
      // Each read of the identity is the caller's, whatever the handler did to an earlier one.
      identity: "ctx-user",
      before: 0,
      incremented: 1,
      subjectInMutation: "ctx-user",
      // ctx.runQuery is a transaction of its own: it sees the mutation that committed before it.
      after: 1,
      jobId: "string",
      metadata: { authToken: token, requestId: "string" },
      storageUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/storage\//),
    });
    expect(log).toHaveBeenCalledWith("action-ctx ran for ctx-a");
    log.mockRestore();
    // The job the action scheduled runs.
    const client = newClient(backend.url);
    await nextValue<string[]>(client, anyApi.jobs.notes, {}, (notes) => notes.includes("ctx-a"));
    await client.close();
  });

  it("runs without a caller, and with a refused token reading the identity throws why", async () => {
    const anonymous = await (await actionCtx("ctx-b")).json();
    expect(anonymous).toMatchObject({ identity: null, subjectInMutation: null, incremented: 1 });
    expect(anonymous.metadata.authToken).toBeNull();
    const expired = await signToken(backend.dataDir, backend.siteUrl, "late", {
      expiresIn: Math.floor(Date.now() / 1000) - 60,
    });
    const refused = await actionCtx("ctx-c", `Bearer ${expired}`);
    // The handler catches what getUserIdentity throws; ctx.runMutation's own read of it fails the action.
    expect(refused.status).toBe(500);
    const notBearer = await actionCtx("ctx-d", "Basic abc");
    expect(notBearer.status).toBe(500);
  });
});

describe("the site port's request path", () => {
  it("answers a handler that throws at once, or returns no Response, with a 500", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const thrown = await fetch(`${backend.siteUrl}/api/throw-sync`);
      expect(thrown.status).toBe(500);
      expect(Object.keys(await thrown.json())).toEqual(["code"]);
      const notResponse = await fetch(`${backend.siteUrl}/api/not-a-response`);
      expect(notResponse.status).toBe(500);
      await notResponse.arrayBuffer();
    } finally {
      errors.mockRestore();
    }
    expect((await fetch(`${backend.siteUrl}/api/whoami`)).status).toBe(200);
  });

  it("answers a target that is not a path with 400", async () => {
    const port = Number(new URL(backend.siteUrl).port);
    for (const target of ["*", "http://example.com/api/whoami", "api/whoami"])
      expect(
        await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      ).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`${backend.siteUrl}/api/whoami`)).status).toBe(200);
  });

  it("refuses a body over 20 MB with 413 before the action runs", async () => {
    const res = await fetch(`${backend.siteUrl}/api/echo-url`, {
      method: "POST",
      body: new Uint8Array(21 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "PayloadTooLarge" });
  });

  it("routes correctly after more distinct paths than it remembers", async () => {
    for (let i = 0; i < 1_100; i += 100)
      await Promise.all(
        Array.from({ length: 100 }, async (_, j) => {
          const res = await fetch(`${backend.siteUrl}/nowhere/${i + j}`);
          expect(res.status).toBe(404);
          await res.arrayBuffer();
        }),
      );
    expect(await (await fetch(`${backend.siteUrl}/api/whoami`)).json()).toEqual({ subject: null });
    // HEAD takes the GET route and gets no body.
    const head = await fetch(`${backend.siteUrl}/api/whoami`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("an HTTP action's run", () => {
  const logEntries = async () => {
    const res = await fetch(`${backend.url}/api/stream_function_logs?cursor=0`, {
      headers: { Authorization: `Convex ${backend.adminKey}` },
    });
    return ((await res.json()) as { entries: Record<string, unknown>[] }).entries;
  };

  it("is in the function log under its route, with its lines and outcome", async () => {
    const ok = await fetch(`${backend.siteUrl}/api/logged/ok`);
    expect(ok.status).toBe(201);
    const failed = await fetch(`${backend.siteUrl}/api/logged/fail`);
    expect(failed.status).toBe(500);
    const entries = (await logEntries()).filter((e) => e.identifier === "GET /api/logged/*");
    expect(entries).toEqual([
      expect.objectContaining({
        kind: "Completion",
        udfType: "HttpAction",
        logLines: ["[LOG] logged /api/logged/ok", "[WARN] careful"],
        error: null,
        success: 201,
      }),
      expect.objectContaining({
        udfType: "HttpAction",
        logLines: ["[LOG] logged /api/logged/fail", "[WARN] careful"],
        error: "Uncaught Error: logged route failed",
        success: null,
      }),
    ]);
  });

  it("fails with Convex's timeout error past an action's time limit", async () => {
    const limits = { ...backend.engine.limits };
    // Shortened so the test runs in a moment (Convex: 30 minutes, an action's limit).
    Object.assign(backend.engine.limits, { actionMs: 300 });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const quick = await fetch(`${backend.siteUrl}/api/slow?ms=50`);
      expect(await quick.text()).toBe("slept 50");
      const slow = await fetch(`${backend.siteUrl}/api/slow?ms=1000`);
      expect(slow.status).toBe(500);
      expect(await slow.json()).toEqual({
        code: expect.stringMatching(/^\[Request ID: [0-9a-f]{16}\] Server Error$/),
      });
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining("HTTP action GET /api/slow?ms=1000 failed"),
        expect.objectContaining({
          message: "Function execution timed out (maximum duration: 300ms)",
        }),
      );
      const entries = (await logEntries()).filter((e) => e.identifier === "GET /api/slow");
      expect(entries.map((e) => e.error)).toEqual([
        null,
        "Function execution timed out (maximum duration: 300ms)",
      ]);
    } finally {
      Object.assign(backend.engine.limits, limits);
      errors.mockRestore();
    }
  });
});
