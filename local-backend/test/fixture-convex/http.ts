import { anyApi, httpActionGeneric, httpRouter } from "convex/server";
import { ConvexError } from "convex/values";

const http = httpRouter();

http.route({
  path: "/api/whoami",
  method: "GET",
  handler: httpActionGeneric(async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    return new Response(JSON.stringify({ subject: identity?.subject ?? null }), {
      headers: { "Content-Type": "application/json" },
    });
  }),
});

// The caller's subject, or why its token was refused (ctx.auth.getUserIdentity() throws it).
http.route({
  path: "/api/identity-or-error",
  method: "GET",
  handler: httpActionGeneric(async (ctx) => {
    try {
      const identity = await ctx.auth.getUserIdentity();
      return new Response(JSON.stringify({ subject: identity?.subject ?? null }));
    } catch (error) {
      return new Response(JSON.stringify({ error: (error as Error).message }));
    }
  }),
});

http.route({
  path: "/api/echo-url",
  method: "POST",
  handler: httpActionGeneric(
    async (_ctx, request) =>
      new Response(JSON.stringify({ url: request.url, body: await request.text() })),
  ),
});

http.route({
  path: "/api/store",
  method: "POST",
  handler: httpActionGeneric(
    async (ctx, request) =>
      new Response(JSON.stringify({ storageId: await ctx.storage.store(await request.blob()) })),
  ),
});

http.route({
  path: "/api/counter",
  method: "GET",
  handler: httpActionGeneric(async (ctx, request) => {
    const name = new URL(request.url).searchParams.get("name") ?? "";
    try {
      return new Response(
        JSON.stringify({ value: await ctx.runQuery(anyApi.counters.getOrThrow, { name }) }),
      );
    } catch (error) {
      if (!(error instanceof ConvexError)) throw error;
      return new Response(JSON.stringify({ error: error.data }), { status: 404 });
    }
  }),
});

// As GharSewa's convex/model/httpApi.ts does: echoes any caller's Origin with credentials.
http.route({
  path: "/api/cors-echo",
  method: "GET",
  handler: httpActionGeneric(
    async (_ctx, request) =>
      new Response("echoed", {
        headers: {
          "Access-Control-Allow-Origin": request.headers.get("Origin") ?? "",
          "Access-Control-Allow-Credentials": "true",
          Vary: "Origin",
        },
      }),
  ),
});

http.route({
  path: "/api/throw",
  method: "GET",
  handler: httpActionGeneric(async () => {
    throw new Error("secret detail from the handler");
  }),
});

// A streamed body (conformance-streaming.test.ts): "first" at once, "second" only once the test calls
// /api/stream-release for the same id; /api/stream-cancelled answers once the reader went away.
interface StreamState {
  release(): void;
  released: Promise<void>;
  cancel(): void;
  cancelled: Promise<void>;
}
const streams = new Map<string, StreamState>();
const streamState = (id: string) => {
  let state = streams.get(id);
  if (!state) {
    let release!: () => void;
    let cancel!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    state = { release, released, cancel, cancelled };
    streams.set(id, state);
  }
  return state;
};
const streamId = (request: Request) => new URL(request.url).searchParams.get("id") ?? "";

http.route({
  path: "/api/stream",
  method: "GET",
  handler: httpActionGeneric(async (ctx, request) => {
    const id = streamId(request);
    const state = streamState(id);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode("first\n"));
        await state.released;
        const value = await ctx.runMutation(anyApi.counters.increment, { name: `stream-${id}` });
        controller.enqueue(encoder.encode(`second ${value}\n`));
        controller.close();
      },
      cancel: () => state.cancel(),
    });
    return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }),
});

http.route({
  path: "/api/stream-release",
  method: "POST",
  handler: httpActionGeneric(async (_ctx, request) => {
    streamState(streamId(request)).release();
    return new Response("released");
  }),
});

http.route({
  path: "/api/stream-cancelled",
  method: "GET",
  handler: httpActionGeneric(async (_ctx, request) => {
    await streamState(streamId(request)).cancelled;
    return new Response("cancelled");
  }),
});

// site-fetch-objects.test.ts: a response body of each kind the Fetch standard takes...
const bodyOfKind: Record<string, () => BodyInit | null> = {
  string: () => "नमस्ते \uD800 text",
  bytes: () => new Uint8Array([0, 1, 2, 255]),
  arrayBuffer: () => new Uint8Array([104, 105]).buffer,
  blob: () => new Blob(["<b>blob</b>"], { type: "text/html" }),
  params: () => new URLSearchParams({ q: "a b", n: "ü" }),
  form: () => {
    const form = new FormData();
    form.append("name", "Ram");
    return form;
  },
  stream: () =>
    new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("streamed"));
        controller.close();
      },
    }),
  none: () => null,
};

http.route({
  path: "/api/body-kind",
  method: "GET",
  handler: httpActionGeneric(async (_ctx, request) => {
    const params = new URL(request.url).searchParams;
    const kind = params.get("kind") ?? "";
    if (kind === "static-json") return Response.json({ made: "by Response.json" }, { status: 202 });
    const response = new Response(bodyOfKind[kind](), {
      status: Number(params.get("status") ?? 200),
      headers: { "X-Kind": kind },
    });
    // A handler may read its own response's body first: the socket then gets a read body's stream.
    if (params.get("peek") === "clone") return response.clone();
    return response;
  }),
});

// ...and a request body read each way a handler can, answered as JSON.
http.route({
  path: "/api/read-request",
  method: "POST",
  handler: httpActionGeneric(async (_ctx, request) => {
    const as = new URL(request.url).searchParams.get("as") ?? "";
    const decode = (bytes: ArrayBuffer | Uint8Array) => [...new Uint8Array(bytes)];
    const read: Record<string, () => Promise<unknown>> = {
      text: () => request.text(),
      json: () => request.json(),
      arrayBuffer: async () => decode(await request.arrayBuffer()),
      bytes: async () => decode(await request.bytes()),
      blob: async () => {
        const blob = await request.blob();
        return { type: blob.type, text: await blob.text() };
      },
      formData: async () => {
        const entries: [string, unknown][] = [];
        (await request.formData()).forEach((value, name) => entries.push([name, value]));
        return entries;
      },
      body: async () => {
        const chunks: number[] = [];
        const reader = request.body!.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(...r.value);
        return chunks;
      },
      clone: async () => [await request.clone().text(), await request.text()],
    };
    let value: unknown;
    try {
      value = await read[as]();
    } catch (error) {
      value = { error: (error as Error).name };
    }
    return Response.json({
      isRequest: request instanceof Request,
      method: request.method,
      url: request.url,
      contentType: request.headers.get("content-type"),
      signalAborted: request.signal.aborted,
      bodyUsed: request.bodyUsed,
      value,
    });
  }),
});

export default http;

// What an HTTP action's ctx holds and does (http-action-ctx.test.ts): its members, a query through the
// cache, a mutation and a scheduled job as the caller, the request metadata, the identity read twice.
http.route({
  path: "/api/action-ctx",
  method: "POST",
  handler: httpActionGeneric(async (ctx, request) => {
    const name = new URL(request.url).searchParams.get("name") ?? "";
    const first = await ctx.auth.getUserIdentity().catch((error: Error) => error.message);
    if (first !== null && typeof first === "object")
      Object.assign(first, { subject: "changed by the handler" });
    const again = await ctx.auth.getUserIdentity().catch((error: Error) => error.message);
    const before = await ctx.runQuery(anyApi.counters.get, { name });
    const incremented = await ctx.runMutation(anyApi.counters.increment, { name });
    const subjectInMutation = await ctx.runMutation(anyApi.identity.subjectMutation, {});
    const after = await ctx.runQuery(anyApi.counters.get, { name });
    const jobId = await ctx.scheduler.runAfter(0, anyApi.jobs.okMutation, { note: name });
    const metadata = await ctx.meta.getRequestMetadata();
    console.log(`action-ctx ran for ${name}`);
    return Response.json({
      members: Object.keys(ctx).sort(),
      identity: typeof again === "string" ? again : (again?.subject ?? null),
      before,
      incremented,
      subjectInMutation,
      after,
      jobId: typeof jobId,
      metadata: { authToken: metadata.authToken, requestId: typeof metadata.requestId },
      storageUrl: await ctx.storage.getUrl(await ctx.storage.store(new Blob(["x"]))),
    });
  }),
});

// Handlers that fail outside an async function's promise (http-action-ctx.test.ts).
http.route({
  path: "/api/throw-sync",
  method: "GET",
  handler: httpActionGeneric(((): Promise<Response> => {
    throw new Error("thrown before any promise");
  }) as never),
});

http.route({
  path: "/api/not-a-response",
  method: "GET",
  handler: httpActionGeneric(async () => ({ status: 200 }) as unknown as Response),
});

// An HTTP action in the function log, and one past its time limit (http-action-ctx.test.ts).
http.route({
  pathPrefix: "/api/logged/",
  method: "GET",
  handler: httpActionGeneric(async (_ctx, request) => {
    const { pathname } = new URL(request.url);
    console.log("logged", pathname);
    console.warn("careful");
    if (pathname.endsWith("/fail")) throw new Error("logged route failed");
    return new Response("ok", { status: 201 });
  }),
});

// Sleeps `ms`, then counts `name` up: a handler past its time limit must not get that far.
http.route({
  path: "/api/slow-count",
  method: "GET",
  handler: httpActionGeneric(async (ctx, request) => {
    const params = new URL(request.url).searchParams;
    await new Promise((resolve) => setTimeout(resolve, Number(params.get("ms"))));
    await ctx.runMutation(anyApi.counters.increment, { name: params.get("name") ?? "" });
    return new Response("counted");
  }),
});

// Never answers: only the time limit ends it.
http.route({
  path: "/api/spin-forever",
  method: "GET",
  handler: httpActionGeneric(async () => {
    for (;;);
  }),
});

http.route({
  path: "/api/slow",
  method: "GET",
  handler: httpActionGeneric(async (_ctx, request) => {
    const ms = Number(new URL(request.url).searchParams.get("ms"));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return new Response(`slept ${ms}`);
  }),
});
