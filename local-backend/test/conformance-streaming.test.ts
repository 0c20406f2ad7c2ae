// HTTP action responses stream as on Convex: a ReadableStream body reaches the client chunk by chunk
// as the handler produces it, not all at once when it ends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(closeTestBackends);

const decoder = new TextDecoder();
const text = (chunk: ReadableStreamReadResult<Uint8Array>) =>
  chunk.done ? null : decoder.decode(chunk.value);

describe("a streamed HTTP action response", () => {
  it("arrives chunk by chunk while the handler is still producing it", async () => {
    const res = await fetch(`${backend.siteUrl}/api/stream?id=a`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-length")).toBeNull();
    const reader = res.body!.getReader();
    // The second chunk does not exist yet: it is produced only after the release below.
    expect(text(await reader.read())).toBe("first\n");

    const release = await fetch(`${backend.siteUrl}/api/stream-release?id=a`, { method: "POST" });
    expect(await release.text()).toBe("released");
    expect(text(await reader.read())).toBe("second 1\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("has made its writes durable and visible when the body ends", async () => {
    const res = await fetch(`${backend.siteUrl}/api/stream?id=b`);
    const reader = res.body!.getReader();
    expect(text(await reader.read())).toBe("first\n");
    await fetch(`${backend.siteUrl}/api/stream-release?id=b`, { method: "POST" });
    expect(text(await reader.read())).toBe("second 1\n");
    expect((await reader.read()).done).toBe(true);
    const client = new ConvexHttpClient(backend.url);
    expect(await client.query(anyApi.counters.get, { name: "stream-b" })).toBe(1);
  });

  it("is cancelled when the client goes away", async () => {
    const abort = new AbortController();
    const res = await fetch(`${backend.siteUrl}/api/stream?id=c`, { signal: abort.signal });
    expect(text(await res.body!.getReader().read())).toBe("first\n");
    abort.abort();
    // Answers only once the handler's stream saw its cancel().
    const cancelled = await fetch(`${backend.siteUrl}/api/stream-cancelled?id=c`);
    expect(await cancelled.text()).toBe("cancelled");
  });

  it("a body that is complete when returned keeps its Content-Length", async () => {
    const res = await fetch(`${backend.siteUrl}/api/echo-url`, { method: "POST", body: "x" });
    const body = await res.text();
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get("transfer-encoding")).toBeNull();
  });
});
