/**
 * Pushes reach only push services: a professional subscribes endpoints that point inside (cloud
 * metadata, loopback in every spelling, private and link-local ranges, local names) and one on a
 * server that answers 302 to an internal URL; a customer's booking request then makes the backend
 * push to every device of theirs. Loopback "internal services" (traps) count every connection made
 * to them: the SSRF targets reached. The backend runs with the test-only `PUSH_ALLOW_LOOPBACK_HTTP=1`
 * (as the web-push tests do), so the redirecting server, a stand-in on http://127.0.0.1, is a
 * subscription it accepts; and one that accepts connections and never answers shows the timeout.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { tempDir } from "./app-backend.ts";
import { DEMO_PASSWORD, fixtureWebRoot, freePorts, signIn, startCli } from "./hostile-backend.ts";

export type PushSsrfReport = {
  hostileEndpoints: number;
  accepted: string[];
  /** Connections the traps saw: each one a request the backend sent inside. */
  reached: number;
  redirect: unknown;
  silentGivenUpMs: number | null;
  failures: string[];
};

type Counting = { server: Server; port: number; hits: () => number; close(): Promise<void> };

async function listen(server: Server, host: string): Promise<number | null> {
  return await new Promise((resolve) => {
    server.once("error", () => resolve(null));
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** A TCP server that counts connections; `answer` false: holds them open, never answering. */
async function trap(host: string, answer = true): Promise<Counting | null> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    hits++;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
    if (answer) socket.end("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nsecrets");
  });
  const port = await listen(server, host);
  if (port === null) return null;
  return {
    server,
    port,
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function keys() {
  return crypto.subtle
    .generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])
    .then(async (pair) => {
      const b64 = (u: Uint8Array) => Buffer.from(u).toString("base64url");
      const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      return { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) };
    });
}

async function until<T>(what: string, ms: number, read: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function runPushSsrf(options: { convexDir?: string } = {}): Promise<PushSsrfReport> {
  const failures: string[] = [];
  const trap4 = (await trap("127.0.0.1"))!;
  const trap6 = await trap("::1");
  const silent = (await trap("127.0.0.1", false))!;
  const redirector = createHttpServer((req, res) => {
    req.resume();
    res.writeHead(302, { Location: `http://127.0.0.1:${trap4.port}/latest/meta-data/` }).end();
  });
  const redirectPort = (await listen(redirector as unknown as Server, "127.0.0.1"))!;
  const dataDir = tempDir("gharsewa-push-ssrf-");
  const webRoot = fixtureWebRoot();
  writeFileSync(path.join(dataDir, "env.local"), "PUSH_ALLOW_LOOPBACK_HTTP=1\n");
  const backend = await startCli(
    { dataDir, ports: await freePorts(), convexDir: options.convexDir },
    webRoot,
  );
  try {
    const as = async (provider: "customer" | "professional", email: string) => {
      const client = new ConvexHttpClient(backend.url, { logger: false });
      client.setAuth((await signIn(backend.url, provider, email, DEMO_PASSWORD)).token);
      return client;
    };
    const pro = await as("professional", "professional@demo.np");
    const customer = await as("customer", "customer3@demo.np");
    const t = trap4.port;
    const hostile = [
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/push",
      "https://[fd00::1]/push",
      "https://[fe80::1]/push",
      "https://metadata.google.internal/computeMetadata/v1/",
      `https://127.0.0.1:${t}/push`,
      `https://localhost:${t}/push`,
      `https://127.1:${t}/push`,
      `https://0x7f000001:${t}/push`,
      `https://[::ffff:127.0.0.1]:${t}/push`,
      `http://localhost:${t}/push`,
      ...(trap6 ? [`https://[::1]:${trap6.port}/push`] : []),
    ];
    const accepted: string[] = [];
    for (const endpoint of hostile) {
      try {
        await pro.mutation(anyApi.push.subscribe, { endpoint, keys: await keys() });
        accepted.push(endpoint);
      } catch {
        // refused: what should happen
      }
    }
    const redirecting = `http://127.0.0.1:${redirectPort}/push/r`;
    const silentEndpoint = `http://127.0.0.1:${silent.port}/push/s`;
    for (const endpoint of [redirecting, silentEndpoint])
      await pro.mutation(anyApi.push.subscribe, { endpoint, keys: await keys() });

    const me = (await pro.query(anyApi.professionals.me, {})) as { _id: string };
    const service = (await customer.query(anyApi.catalog.serviceDetails, {
      category: "Electrician",
      serviceName: "Light Fitting",
      location: "Nepalgunj",
    })) as { _id: string };
    const requested = Date.now();
    const bookingId = (await customer.mutation(anyApi.bookings.create, {
      professionalId: me._id,
      serviceIds: [service._id],
      city: "nepalgunj",
      address: "Ward 5, Dhamboji Chowk",
      scheduledFor: Date.now() + 3_600_000,
    })) as string;
    const statusOf = async (endpoint: string) =>
      ((await pro.query(anyApi.push.status, { endpoint })) as { lastResult: unknown }).lastResult;
    const redirect = await until("the redirected push's outcome", 60_000, () =>
      statusOf(redirecting),
    );
    let silentGivenUpMs: number | null = null;
    try {
      await until("the silent push service's outcome", 60_000, () => statusOf(silentEndpoint));
      silentGivenUpMs = Date.now() - requested;
    } catch (error) {
      failures.push((error as Error).message);
    }
    await customer.mutation(anyApi.bookings.cancel, { bookingId, reason: "Drill over" });
    const reached = trap4.hits() + (trap6?.hits() ?? 0);
    if (accepted.length > 0) failures.push(`accepted as endpoints: ${accepted.join(", ")}`);
    if (reached > 0) failures.push(`${reached} connections reached the internal traps`);
    const shape = Object.keys((redirect ?? {}) as object).sort();
    if (shape.join() !== "at,status")
      failures.push(`push:status tells more than status and time: ${JSON.stringify(redirect)}`);
    if (silentGivenUpMs !== null && silentGivenUpMs > 20_000)
      failures.push(`a silent push service held the send for ${silentGivenUpMs} ms`);
    return {
      hostileEndpoints: hostile.length + 1,
      accepted,
      reached,
      redirect,
      silentGivenUpMs,
      failures,
    };
  } finally {
    await backend.stop();
    await Promise.all([trap4.close(), trap6?.close(), silent.close()]);
    await new Promise((resolve) => redirector.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(webRoot, { recursive: true, force: true });
  }
}

export function summarizePushSsrf(r: PushSsrfReport): string {
  return (
    `${r.hostileEndpoints} internal targets (metadata, loopback spellings, private, link-local, ` +
    `local names, a 302 to loopback): ${r.accepted.length} accepted as endpoints, SSRF targets ` +
    `reached ${r.reached}; the redirect's status ${JSON.stringify(r.redirect)}; a silent push ` +
    `service answered for after ${r.silentGivenUpMs ?? "?"} ms`
  );
}
