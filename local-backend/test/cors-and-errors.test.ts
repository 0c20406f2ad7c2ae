// CORS on the site port and error answers as Convex gives them.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_RESOLVED } from "../engine/engine.ts";
import type { Backend } from "../server.ts";
import { InvalidCorsOrigin } from "../site.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

const WEB_ORIGIN = "http://127.0.0.1:5173";
const PARTNER = "https://partner.example";
const REDACTED = /^\[Request ID: [0-9a-f]{16}\] Server Error$/;

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend({ webOrigin: WEB_ORIGIN, corsOrigins: [PARTNER] });
});
afterAll(closeTestBackends);

describe("CORS on the site port", () => {
  const corsOf = async (origin: string) => {
    const res = await fetch(`${backend.siteUrl}/api/cors-echo`, { headers: { Origin: origin } });
    expect(await res.text()).toBe("echoed");
    return [
      res.headers.get("access-control-allow-origin"),
      res.headers.get("access-control-allow-credentials"),
    ];
  };

  it("the web app's origin and configured origins keep what the app's router granted", async () => {
    expect(await corsOf(WEB_ORIGIN)).toEqual([WEB_ORIGIN, "true"]);
    expect(await corsOf(PARTNER)).toEqual([PARTNER, "true"]);
  });

  it("any other origin, `null` included, is granted nothing", async () => {
    for (const origin of [
      "https://evil.example",
      "null",
      "http://127.0.0.1:5174",
      `${WEB_ORIGIN}.evil.example`,
    ]) {
      expect([origin, ...(await corsOf(origin))]).toEqual([origin, null, null]);
    }
  });

  it("origins are checked at start: a path, `*` or `null` is refused", async () => {
    for (const corsOrigins of [
      ["null"],
      ["*"],
      ["https://partner.example/app"],
      ["partner.example"],
    ]) {
      await expect(startTestBackend({ corsOrigins })).rejects.toBeInstanceOf(InvalidCorsOrigin);
    }
  });
});

describe("errors", () => {
  const call = (route: string, body: string) =>
    fetch(`${backend.url}${route}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });

  it("a malformed API body is a 400 with a JSON error", async () => {
    for (const body of [
      "null",
      "not json",
      "[]",
      "42",
      '{"path":1,"args":{}}',
      '{"args":{}}',
      '{"path":"counters:get"}',
      '{"path":"counters:get","args":"x"}',
      '{"path":"counters:get","args":[1,2]}',
    ]) {
      const res = await call("/api/query", body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(await res.json()).toMatchObject({ code: "BadJsonBody", message: expect.any(String) });
    }
  });

  it("a missing and an internal function give the same answer", async () => {
    const answer = async (path: string) => {
      const res = await call("/api/query", JSON.stringify({ path, args: {} }));
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const [missing, internal] = await Promise.all([
      answer("counters:nope"),
      answer("counters:getInternal"),
    ]);
    expect(missing).toEqual({
      status: 560,
      body: {
        status: "error",
        errorMessage: expect.stringMatching(
          /^\[Request ID: [0-9a-f]{16}\] Server Error\nCould not find public function for 'counters:nope'\.$/,
        ),
        logLines: [],
      },
    });
    expect(internal).toEqual({
      status: 560,
      body: {
        status: "error",
        errorMessage: expect.stringMatching(
          /^\[Request ID: [0-9a-f]{16}\] Server Error\nCould not find public function for 'counters:getInternal'\.$/,
        ),
        logLines: [],
      },
    });
  });

  it("function paths a client names are remembered up to a bound", async () => {
    expect(MAX_RESOLVED).toBeGreaterThan(0);
    for (let i = 0; i < MAX_RESOLVED + 100; i++) await backend.engine.exists(`nope:f${i}`);
    expect(backend.engine.resolvedPaths).toBe(MAX_RESOLVED);
    expect(await backend.engine.exists("counters:get")).toBe(true);
  });

  it("an internal error reaches the client as Convex's redacted Server Error; the details go to the server log", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const resolve = vi
      .spyOn(backend.engine, "resolve")
      .mockRejectedValueOnce(new TypeError("udfPath.split is not a function"));
    try {
      const res = await call(
        "/api/query",
        JSON.stringify({ path: "counters:get", args: { name: "x" } }),
      );
      const body = (await res.json()) as { errorMessage: string };
      expect(res.status).toBe(560);
      expect(body.errorMessage).toMatch(REDACTED);
      expect(JSON.stringify(body)).not.toContain("udfPath");
      const requestId = /[0-9a-f]{16}/.exec(body.errorMessage)![0];
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining(`[Request ID: ${requestId}]`),
        expect.objectContaining({ message: "udfPath.split is not a function" }),
      );
    } finally {
      resolve.mockRestore();
      logged.mockRestore();
    }
  });

  it("an HTTP action that throws answers 500 with the redacted Server Error only", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await fetch(`${backend.siteUrl}/api/throw`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { code: string };
      expect(Object.keys(body)).toEqual(["code"]);
      expect(body.code).toMatch(REDACTED);
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining(body.code.slice(0, 30)),
        expect.objectContaining({ message: "secret detail from the handler" }),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
