// The HTTP action Request/Response of lean-fetch.ts answer as undici's do: each case is run on both
// and the observable results compared.
import { describe, expect, it } from "vitest";
import { installLeanResponse, LeanResponse, leanRequest } from "../lean-fetch.ts";

const NativeResponse = Object.getPrototypeOf(LeanResponse) as typeof Response;

type Observed = Record<string, unknown>;

/** Name-value pairs of Headers or FormData, in their order (the project's DOM lib has no iterators). */
function pairs(list: Headers | FormData) {
  const out: [string, unknown][] = [];
  (list as Headers).forEach((value: unknown, name: string) => out.push([name, value]));
  return out;
}

/** Bytes as a string of one character per byte (readable in a diff, comparable). */
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

async function settle<T>(promise: () => Promise<T>): Promise<unknown> {
  try {
    const value = await promise();
    if (value instanceof ArrayBuffer) return { arrayBuffer: latin1(new Uint8Array(value)) };
    if (value instanceof Uint8Array)
      return { bytes: latin1(value), plain: value.constructor === Uint8Array };
    if (value instanceof Blob) return { blob: value.type, text: await value.text() };
    if (value instanceof FormData) return { form: pairs(value) };
    return { value };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

async function readStream(stream: ReadableStream<Uint8Array> | null) {
  if (stream === null) return null;
  const chunks: number[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(...r.value);
  return latin1(new Uint8Array(chunks));
}

/** Multipart boundaries are random: the same observation with the boundary named once. */
const sameBoundary = (seen: Observed): Observed =>
  JSON.parse(JSON.stringify(seen).replace(/formdata-undici-\d+/g, "formdata-undici-N")) as Observed;

/** What a caller can see of a response, reading its body with `read`, then reading it again. */
async function observe(response: Response, read: string): Promise<Observed> {
  const seen: Observed = {
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    type: response.type,
    url: response.url,
    redirected: response.redirected,
    headers: pairs(response.headers),
    usedBefore: response.bodyUsed,
  };
  const r = response as unknown as Record<string, () => Promise<unknown>>;
  if (read === "body") seen.read = await readStream(response.body);
  else if (read === "clone") {
    const copy = response.clone();
    seen.copy = [copy.status, pairs(copy.headers), await settle(() => copy.text())];
    seen.read = await settle(() => response.text());
  } else seen.read = await settle(() => r[read]());
  seen.usedAfter = response.bodyUsed;
  seen.again = await settle(() => response.text());
  seen.cloneAfter = await settle(async () => response.clone().status);
  seen.bodyAfter = response.body === null ? null : { locked: response.body.locked };
  return seen;
}

const bodies: Record<string, () => BodyInit | null> = {
  none: () => null,
  ascii: () => '{"success":true,"names":["a","b"]}',
  unicode: () => "नमस्ते — ₹ 😀",
  bom: () => "\uFEFF[1,2]",
  loneSurrogate: () => "a\uD800b",
  empty: () => "",
  arrayBuffer: () => new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]).buffer,
  view: () => new Uint8Array([9, 0x22, 0x61, 0x22, 9]).subarray(1, 4),
  dataView: () => new DataView(new Uint8Array([0x5b, 0x5d, 0]).buffer, 0, 2),
  blob: () => new Blob(['{"a":1}'], { type: "application/json" }),
  untypedBlob: () => new Blob(["x=1&y=%20"]),
  params: () => new URLSearchParams({ a: "1 2", b: "ü" }),
  form: () => {
    const form = new FormData();
    form.append("name", "Ram");
    return form;
  },
  stream: () =>
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("str"));
        controller.enqueue(new TextEncoder().encode("eam"));
        controller.close();
      },
    }),
  number: () => 42 as unknown as BodyInit,
};

const reads = ["text", "json", "arrayBuffer", "bytes", "blob", "formData", "body", "clone"];

const inits: Record<string, ResponseInit | undefined> = {
  none: undefined,
  typed: {
    status: 201,
    statusText: "Made",
    headers: { "Content-Type": "application/json; charset=utf-8", Vary: "Origin" },
  },
  formType: { headers: { "content-type": "application/x-www-form-urlencoded" } },
};

describe("LeanResponse answers as undici's Response", () => {
  for (const [bodyName, body] of Object.entries(bodies))
    for (const [initName, init] of Object.entries(inits))
      it(`body ${bodyName}, init ${initName}`, async () => {
        for (const read of reads) {
          const lean = await observe(new LeanResponse(body(), init), read);
          const native = await observe(new NativeResponse(body(), init), read);
          expect(sameBoundary({ read, ...lean })).toEqual(sameBoundary({ read, ...native }));
        }
      });

  it("reads a body whose stream was asked for, and one read before its stream was asked for", async () => {
    for (const make of [(b: string) => new LeanResponse(b), (b: string) => new NativeResponse(b)]) {
      const streamed = make("abc");
      const reader = streamed.body!.getReader();
      expect(streamed.bodyUsed).toBe(false);
      await expect(streamed.text()).rejects.toThrow(TypeError);
      reader.releaseLock();
      expect(await streamed.text()).toBe("abc");
      const read = make("abc");
      expect(await read.text()).toBe("abc");
      expect(read.body!.locked).toBe(true);
      expect(read.bodyUsed).toBe(true);
    }
  });

  it("a clone's headers are the original's list, not re-derived", async () => {
    const response = new LeanResponse("x");
    response.headers.delete("content-type");
    const copy = response.clone();
    expect(copy.headers.get("content-type")).toBeNull();
    expect(await copy.text()).toBe("x");
    expect(await response.text()).toBe("x");
  });

  it("refuses what undici refuses, with its errors", () => {
    for (const status of [204, 304, 205])
      expect(() => new LeanResponse("x", { status })).toThrow(
        `Response constructor: Invalid response status code ${status}`,
      );
    expect(() => new LeanResponse("x", { status: 99 })).toThrow(RangeError);
    expect(() => new LeanResponse("x", { status: "204" as unknown as number })).toThrow(TypeError);
    expect(() => new LeanResponse("x", { statusText: "bad\n" })).toThrow(TypeError);
    expect(() => new LeanResponse("x", { headers: { "bad name": "x" } })).toThrow(TypeError);
    expect(new LeanResponse(null, { status: 204 }).status).toBe(204);
  });

  it("hands the site port its held body once; a stream, FormData or a read body is not held", async () => {
    const response = new LeanResponse("held");
    expect(LeanResponse.take(response)).toBe("held");
    expect(response.bodyUsed).toBe(true);
    expect(LeanResponse.take(response)).toBeNull();
    await expect(response.text()).rejects.toThrow("Body is unusable");
    const streamed = new LeanResponse("x");
    void streamed.body;
    expect(LeanResponse.take(streamed)).toBeNull();
    expect(LeanResponse.take(new LeanResponse(bodies.stream()))).toBeNull();
    expect(LeanResponse.take(new LeanResponse(bodies.form()))).toBeNull();
    expect(LeanResponse.take(new NativeResponse("x"))).toBeNull();
    expect(LeanResponse.take(new LeanResponse(null))).toBeNull();
    const bytes = new Uint8Array([1, 2]);
    const fromBytes = new LeanResponse(bytes);
    bytes[0] = 9; // the body is a copy made when the response was
    expect(LeanResponse.take(fromBytes)).toEqual(new Uint8Array([1, 2]));
  });

  it("is the global Response once installed; undici's responses stay instances of it", async () => {
    installLeanResponse();
    expect(globalThis.Response).toBe(LeanResponse);
    expect(Object.getPrototypeOf(new Response("x"))).toBe(LeanResponse.prototype);
    expect(new NativeResponse("x")).toBeInstanceOf(Response);
    expect(Response.json({ a: 1 })).toBeInstanceOf(Response);
    expect(await Response.json({ a: 1 }).json()).toEqual({ a: 1 });
    expect(Response.redirect("http://127.0.0.1/x").status).toBe(302);
    expect(Response.error().type).toBe("error");
    expect(Object.prototype.toString.call(new Response("x"))).toBe("[object Response]");
    class Sub extends Response {}
    expect(await new Sub("sub").text()).toBe("sub");
    expect(new Sub("sub")).toBeInstanceOf(Response);
    installLeanResponse();
    expect(globalThis.Response).toBe(LeanResponse);
  });
});

/** What a handler can see of a request, reading its body with `read`, then reading it again. */
async function observeRequest(request: Request, read: string): Promise<Observed> {
  const fields = [
    "method",
    "url",
    "destination",
    "referrer",
    "referrerPolicy",
    "mode",
    "credentials",
    "cache",
    "redirect",
    "integrity",
    "keepalive",
    "isReloadNavigation",
    "isHistoryNavigation",
    "duplex",
  ];
  const r = request as unknown as Record<string, unknown>;
  const seen: Observed = Object.fromEntries(fields.map((f) => [f, r[f]]));
  seen.headers = pairs(request.headers);
  seen.signal = [request.signal instanceof AbortSignal, request.signal.aborted];
  seen.sameSignal = request.signal === request.signal;
  seen.sameHeaders = request.headers === request.headers;
  seen.usedBefore = request.bodyUsed;
  if (read === "body") seen.read = await readStream(request.body);
  else if (read === "clone") {
    const copy = request.clone();
    seen.copy = [copy.method, copy.url, pairs(copy.headers), await settle(() => copy.text())];
    seen.read = await settle(() => request.text());
  } else seen.read = await settle(() => (r[read] as () => Promise<unknown>).call(request));
  seen.usedAfter = request.bodyUsed;
  seen.again = await settle(() => request.text());
  seen.cloneAfter = await settle(async () => request.clone().method);
  seen.bodyAfter = request.body === null ? null : { locked: request.body.locked };
  return seen;
}

const requests: Record<string, { method: string; type?: string; body?: Uint8Array }> = {
  get: { method: "GET" },
  json: { method: "POST", type: "application/json", body: new TextEncoder().encode('{"a":[1]}') },
  bom: { method: "PUT", type: "text/plain", body: new Uint8Array([0xef, 0xbb, 0xbf, 0x68]) },
  badUtf8: { method: "POST", body: new Uint8Array([0xff, 0x61]) },
  form: {
    method: "POST",
    type: "application/x-www-form-urlencoded",
    body: new TextEncoder().encode("a=1&b=%C3%BC"),
  },
  multipart: {
    method: "POST",
    type: "multipart/form-data; boundary=XX",
    body: new TextEncoder().encode(
      '--XX\r\nContent-Disposition: form-data; name="n"\r\n\r\nRam\r\n--XX--\r\n',
    ),
  },
  empty: { method: "DELETE", body: new Uint8Array(0) },
};

describe("the handler's Request answers as undici's Request", () => {
  const url = "http://127.0.0.1:3211/api/x?q=%20&r=1";
  const headersOf = (type?: string) => {
    const headers = new Headers([
      ["Host", "127.0.0.1:3211"],
      ["X-Many", "a"],
    ]);
    headers.append("x-many", "b");
    if (type) headers.set("Content-Type", type);
    return headers;
  };
  for (const [name, { method, type, body }] of Object.entries(requests))
    it(`${name}`, async () => {
      for (const read of [...reads, "text"]) {
        // A body read off the socket: bytes in a larger pooled buffer, at an offset.
        const pooled = body && Buffer.concat([Buffer.from("junk"), body]).subarray(4);
        const lean = leanRequest({ method, url, headers: headersOf(type), body: pooled });
        const native = new Request(url, {
          method,
          headers: headersOf(type),
          body: body as Uint8Array<ArrayBuffer> | undefined,
        });
        const seenLean = await observeRequest(lean, read);
        expect({ read, ...seenLean }).toEqual({ read, ...(await observeRequest(native, read)) });
      }
    });

  it("is an instance of Request, with undici's members", () => {
    const request = leanRequest({
      method: "GET",
      url: "http://127.0.0.1/",
      headers: new Headers(),
      body: undefined,
    });
    expect(request).toBeInstanceOf(Request);
    expect(Object.prototype.toString.call(request)).toBe("[object Request]");
    for (const name of Object.getOwnPropertyNames(Request.prototype)) {
      const own = Object.getOwnPropertyDescriptor(Request.prototype, name)!;
      if (name === "constructor" || !(own.get || typeof own.value === "function")) continue;
      // Every accessor and method is answered by the lean request, none by undici's (its state is absent).
      expect(() => (request as unknown as Record<string, unknown>)[name], name).not.toThrow();
    }
  });

  it("its body stays the socket's bytes: an arrayBuffer() is a copy of exactly them", async () => {
    const pooled = Buffer.concat([Buffer.from("junk"), Buffer.from("body")]).subarray(4);
    const request = leanRequest({
      method: "POST",
      url: "http://127.0.0.1/",
      headers: new Headers(),
      body: pooled,
    });
    const buffer = await request.arrayBuffer();
    expect(buffer.byteLength).toBe(4);
    new Uint8Array(buffer)[0] = 0;
    expect(pooled.toString()).toBe("body");
  });
});
