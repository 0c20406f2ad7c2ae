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

export default http;
