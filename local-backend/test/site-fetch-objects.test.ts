// Over the site port, an HTTP action's Request and Response (lean-fetch.ts) carry what undici's would:
// each body kind's bytes, Content-Type and Content-Length, each way of reading a request body, and
// hostile callers (a bad target, a client that does not read) affect their own request only.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeanResponse } from "../lean-fetch.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

const NativeResponse = Object.getPrototypeOf(LeanResponse) as typeof Response;

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(closeTestBackends);

/** What undici's Response makes of the fixture's body of `kind`: its Content-Type and bytes. */
async function expected(make: () => BodyInit | null) {
  const response = new NativeResponse(make());
  return {
    type: response.headers.get("content-type"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const kinds: Record<string, () => BodyInit | null> = {
  string: () => "नमस्ते \uD800 text",
  bytes: () => new Uint8Array([0, 1, 2, 255]),
  arrayBuffer: () => new Uint8Array([104, 105]).buffer,
  blob: () => new Blob(["<b>blob</b>"], { type: "text/html" }),
  params: () => new URLSearchParams({ q: "a b", n: "ü" }),
};

const withoutBoundary = (text: string) => text.replace(/formdata-undici-\d+/g, "B");

describe("an HTTP action's response body over the site port", () => {
  for (const [kind, make] of Object.entries(kinds))
    it(`${kind}: the bytes, Content-Type and Content-Length undici's Response would give`, async () => {
      const want = await expected(make);
      for (const peek of ["", "&peek=clone"]) {
        const res = await fetch(`${backend.siteUrl}/api/body-kind?kind=${kind}${peek}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-kind")).toBe(kind);
        expect(res.headers.get("content-type")).toBe(want.type);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(bytes).toEqual(want.bytes);
        expect(res.headers.get("content-length")).toBe(String(want.bytes.length));
      }
    });

  it("FormData and a stream: undici's bodies, complete ones with a Content-Length", async () => {
    const form = await fetch(`${backend.siteUrl}/api/body-kind?kind=form`);
    expect(form.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const text = await form.text();
    expect(withoutBoundary(text)).toBe(
      '------B\r\nContent-Disposition: form-data; name="name"\r\n\r\nRam\r\n------B--\r\n',
    );
    expect(form.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const stream = await fetch(`${backend.siteUrl}/api/body-kind?kind=stream`);
    expect(await stream.text()).toBe("streamed");
  });

  it("Response.json, no body, a 204 and HEAD", async () => {
    const made = await fetch(`${backend.siteUrl}/api/body-kind?kind=static-json`);
    expect(made.status).toBe(202);
    expect(made.headers.get("content-type")).toBe("application/json");
    expect(await made.json()).toEqual({ made: "by Response.json" });
    const none = await fetch(`${backend.siteUrl}/api/body-kind?kind=none`);
    expect(none.headers.get("content-type")).toBeNull();
    expect(await none.text()).toBe("");
    const empty = await fetch(`${backend.siteUrl}/api/body-kind?kind=none&status=204`);
    expect(empty.status).toBe(204);
    const head = await fetch(`${backend.siteUrl}/api/body-kind?kind=string`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
    expect(await head.text()).toBe("");
  });

  it("a body with a status that allows none is the handler's error: a 500", async () => {
    const res = await fetch(`${backend.siteUrl}/api/body-kind?kind=string&status=204`);
    expect(res.status).toBe(500);
  });
});

describe("an HTTP action's request over the site port", () => {
  const post = async (as: string, body: BodyInit, type: string) => {
    const res = await fetch(`${backend.siteUrl}/api/read-request?as=${as}&x=%20`, {
      method: "POST",
      body,
      headers: { "Content-Type": type },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };

  it("is a Request with the socket's method, URL and headers, and a signal on demand", async () => {
    const seen = await post("text", "hello", "text/plain");
    expect(seen).toMatchObject({
      isRequest: true,
      method: "POST",
      url: `${backend.siteUrl}/api/read-request?as=text&x=%20`,
      contentType: "text/plain",
      signalAborted: false,
      bodyUsed: true,
      value: "hello",
    });
  });

  it("reads its body each way the Fetch standard offers", async () => {
    const json = '\uFEFF{"name":"राम"}';
    expect((await post("text", json, "application/json")).value).toBe('{"name":"राम"}');
    expect((await post("json", json, "application/json")).value).toEqual({ name: "राम" });
    expect((await post("json", "{bad", "application/json")).value).toEqual({
      error: "SyntaxError",
    });
    const raw = new Uint8Array([0, 255, 10]);
    expect((await post("arrayBuffer", raw, "application/octet-stream")).value).toEqual([
      0, 255, 10,
    ]);
    expect((await post("bytes", raw, "application/octet-stream")).value).toEqual([0, 255, 10]);
    expect((await post("body", raw, "application/octet-stream")).value).toEqual([0, 255, 10]);
    expect((await post("blob", "<i>x</i>", "Text/HTML; Charset=UTF-8")).value).toEqual({
      type: "text/html;charset=utf-8",
      text: "<i>x</i>",
    });
    expect(
      (await post("formData", "a=1&b=%C3%BC", "application/x-www-form-urlencoded")).value,
    ).toEqual([
      ["a", "1"],
      ["b", "ü"],
    ]);
    const form = new FormData();
    form.append("n", "Ram");
    const multipart = await fetch(`${backend.siteUrl}/api/read-request?as=formData`, {
      method: "POST",
      body: form,
    });
    expect((await multipart.json()).value).toEqual([["n", "Ram"]]);
    expect((await post("clone", "twice", "text/plain")).value).toEqual(["twice", "twice"]);
  });

  it("a body of several MB arrives whole", async () => {
    const big = "x".repeat(5 * 1024 * 1024);
    expect(((await post("text", big, "text/plain")).value as string).length).toBe(big.length);
  });
});

/** Sends raw bytes to the site port; resolves with the status line of the answer. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(backend.siteUrl).port), "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(data.split("\r\n")[0] || "closed"));
    socket.write(request);
  });
}

describe("hostile callers of the site port", () => {
  it("a target no URL parser accepts is a 400; the next request is answered", async () => {
    expect(await raw("GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect((await fetch(`${backend.siteUrl}/api/body-kind?kind=string`)).status).toBe(200);
  });

  it("a client that does not read a large response holds up no one else", async () => {
    const socket = connect(Number(new URL(backend.siteUrl).port), "127.0.0.1");
    socket.pause();
    // Ten 5 MB echoes asked for, none read.
    const body = "y".repeat(5 * 1024 * 1024);
    for (let i = 0; i < 10; i++)
      socket.write(
        `POST /api/read-request?as=text HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      );
    const started = Date.now();
    const res = await fetch(`${backend.siteUrl}/api/body-kind?kind=bytes`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    socket.destroy();
  });
});
