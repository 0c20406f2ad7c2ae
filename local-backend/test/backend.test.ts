import { anyApi } from "convex/server";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import WebSocket from "ws";
import { exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeId, newInternalId, tableNumberOf } from "../engine/ids.ts";
import type { Backend } from "../server.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  signToken,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

type Message = { body: string; author: string | null };
const bodies = (rows: Message[]) => rows.map((r) => r.body);

let backend: Backend;
let dataDir: string;
const clients: { close(): Promise<void> }[] = [];
const client = () => {
  const c = newClient(backend.url);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  dataDir = tempDataDir();
  backend = await startTestBackend({ dataDir });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await closeTestBackends();
});

describe("sync WebSocket", () => {
  it("a mutation by one client updates another client's subscription", async () => {
    const [a, b] = [client(), client()];
    await nextValue<Message[]>(a, anyApi.messages.list, { channel: "two" }, (v) => v.length === 0);
    const update = nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "two" },
      (v) => v.length === 1,
    );
    await b.mutation(anyApi.messages.send, { channel: "two", body: "hello" });
    expect(bodies(await update)).toEqual(["hello"]);
  });

  it("a mutation resolves only after its own client's queries reflect it", async () => {
    const a = client();
    let latest: Message[] = [];
    a.onUpdate(anyApi.messages.list, { channel: "own" }, (v) => (latest = v as Message[]));
    await nextValue<Message[]>(a, anyApi.messages.list, { channel: "own" }, () => true);
    await a.mutation(anyApi.messages.send, { channel: "own", body: "mine" });
    expect(bodies(latest)).toEqual(["mine"]);
  });

  it("a ConvexError reaches the client with its data, and console output as log lines", async () => {
    const a = client();
    const error = await a
      .mutation(anyApi.messages.send, { channel: "err", body: "" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { code: "EMPTY", message: "Message is empty." } });
    const plain = await a
      .mutation(anyApi.messages.send, { channel: "err", body: "crash" })
      .catch((e: Error) => e);
    expect((plain as Error).message).toContain("plain failure");
  });

  it("function console output reaches the client as log lines", async () => {
    const lines: string[] = [];
    const collect = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    const logger = { log: collect, warn: collect, error: collect, logVerbose: () => {} };
    const c = new ConvexClient(backend.url, {
      webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
      logger,
    });
    clients.push(c);
    await c.mutation(anyApi.messages.send, { channel: "logs", body: "logged" });
    expect(
      lines.some(
        (l) => l.includes("[CONVEX M(messages:send)] [LOG]") && l.includes("sending logged"),
      ),
    ).toBe(true);
  });

  it("an action calling an internal mutation updates subscribers", async () => {
    const [a, b] = [client(), client()];
    await nextValue<Message[]>(a, anyApi.messages.list, { channel: "act" }, (v) => v.length === 0);
    const update = nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "act" },
      (v) => v.length === 1,
    );
    expect(
      await b.action(anyApi.messages.sendViaAction, { channel: "act", body: "via action" }),
    ).toBe("done");
    expect(bodies(await update)).toEqual(["via action"]);
  });

  it("a scheduled function's writes update subscribers", async () => {
    const a = client();
    await nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "later" },
      (v) => v.length === 0,
    );
    const update = nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "later" },
      (v) => v.length === 1,
    );
    await a.mutation(anyApi.messages.sendLater, {
      channel: "later",
      body: "scheduled",
      delayMs: 30,
    });
    expect(bodies(await update)).toEqual(["scheduled"]);
  });

  it("re-runs only queries whose index range a commit touched", async () => {
    const a = client();
    a.onUpdate(anyApi.messages.list, { channel: "quiet" }, () => {});
    a.onUpdate(anyApi.counters.get, { name: "c" }, () => {});
    await nextValue<number>(a, anyApi.counters.get, { name: "c" }, (v) => v === 0);
    const runsBefore = backend.subscriptions.runs;
    await a.mutation(anyApi.counters.increment, { name: "other" });
    await a.mutation(anyApi.messages.send, { channel: "noisy", body: "x" });
    // Neither the "quiet" channel nor counter "c" was touched.
    expect(backend.subscriptions.runs).toBe(runsBefore);
    await a.mutation(anyApi.counters.increment, { name: "c" });
    expect(backend.subscriptions.runs).toBe(runsBefore + 1);
  });

  it("index lookups see the transaction's own writes and follow a document moved between index values", async () => {
    const a = client();
    expect(await a.mutation(anyApi.messages.sendAndCount, { channel: "idx-a", body: "1" })).toBe(1);
    expect(await a.mutation(anyApi.messages.sendAndCount, { channel: "idx-a", body: "2" })).toBe(2);
    const id = await a.mutation(anyApi.messages.send, { channel: "idx-a", body: "3" });
    a.onUpdate(anyApi.messages.list, { channel: "idx-a" }, () => {});
    a.onUpdate(anyApi.messages.list, { channel: "idx-b" }, () => {});
    await nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "idx-b" },
      (v) => v.length === 0,
    );
    const inA = nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "idx-a" },
      (v) => v.length === 2,
    );
    const inB = nextValue<Message[]>(
      a,
      anyApi.messages.list,
      { channel: "idx-b" },
      (v) => v.length === 1,
    );
    await a.mutation(anyApi.messages.move, { id, channel: "idx-b" });
    expect(bodies(await inA)).toEqual(["1", "2"]);
    expect(bodies(await inB)).toEqual(["3"]);
  });

  it("identical subscriptions that do not read the identity share one run", async () => {
    const [a, b] = [client(), client()];
    a.onUpdate(anyApi.counters.get, { name: "shared" }, () => {});
    b.onUpdate(anyApi.counters.get, { name: "shared" }, () => {});
    await nextValue<number>(a, anyApi.counters.get, { name: "shared" }, (v) => v === 0);
    await nextValue<number>(b, anyApi.counters.get, { name: "shared" }, (v) => v === 0);
    const runsBefore = backend.subscriptions.runs;
    const seenByA = nextValue<number>(a, anyApi.counters.get, { name: "shared" }, (v) => v === 1);
    const seenByB = nextValue<number>(b, anyApi.counters.get, { name: "shared" }, (v) => v === 1);
    await a.mutation(anyApi.counters.increment, { name: "shared" });
    expect([await seenByA, await seenByB]).toEqual([1, 1]);
    expect(backend.subscriptions.runs - runsBefore).toBe(1);
  });
});

describe("auth", () => {
  const authState = (token: string) => {
    const c = client();
    const identity = new Promise<boolean>((resolve) => c.setAuth(async () => token, resolve));
    return { c, identity };
  };

  it("accepts a valid token and builds the identity as Convex does", async () => {
    const { c, identity } = authState(await signToken(dataDir, backend.siteUrl, "user1|session1"));
    expect(await identity).toBe(true);
    const me = await nextValue<{ subject: string; tokenIdentifier: string } | null>(
      c,
      anyApi.messages.whoami,
      {},
      (v) => v !== null,
    );
    expect(me).toEqual({
      subject: "user1|session1",
      tokenIdentifier: `${backend.siteUrl}|user1|session1`,
    });
  });

  it("drops the identity and sends AuthError when the connection's token expires", async () => {
    // `exp` is in whole seconds and checked against the current second: at least 1 s ahead, the token
    // is still valid when the backend verifies it (floor(now) + 1 left 0–1,000 ms).
    const token = await signToken(dataDir, backend.siteUrl, "short", {
      expiresIn: Math.ceil(Date.now() / 1000) + 1,
    });
    const socket = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.48.0/sync`);
    const messages: { type: string; [k: string]: unknown }[] = [];
    const authError = new Promise<void>((resolve) =>
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString()) as { type: string };
        if (message.type !== "Ping") messages.push(message);
        if (message.type === "AuthError") resolve();
      }),
    );
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(
      JSON.stringify({
        type: "Connect",
        sessionId: "s",
        connectionCount: 0,
        lastCloseReason: null,
        clientTs: Date.now(),
      }),
    );
    socket.send(
      JSON.stringify({ type: "Authenticate", tokenType: "User", value: token, baseVersion: 0 }),
    );
    await authError;
    socket.close();
    expect(messages.map((m) => m.type)).toEqual(["Transition", "AuthError"]);
    expect(messages[0]).toMatchObject({ endVersion: { identity: 1 } });
    expect(messages[1]).toMatchObject({ baseVersion: 0, authUpdateAttempted: false });
  });

  it("a mutation or action sent right after Authenticate runs with the new identity", async () => {
    const c = client();
    await c.mutation(anyApi.identity.subjectMutation, {});
    const token = await signToken(dataDir, backend.siteUrl, "ordered");
    const confirmed = new Promise<boolean>((resolve) => c.setAuth(async () => token, resolve));
    // setAuth pauses the socket until the token is fetched, then sends Authenticate before these.
    const [fromMutation, fromAction] = await Promise.all([
      c.mutation(anyApi.identity.subjectMutation, {}),
      c.action(anyApi.identity.subjectAction, {}),
    ]);
    expect([fromMutation, fromAction]).toEqual(["ordered", "ordered"]);
    expect(await confirmed).toBe(true);
    c.client.clearAuth();
    const afterClear = await Promise.all([
      c.mutation(anyApi.identity.subjectMutation, {}),
      c.action(anyApi.identity.subjectAction, {}),
    ]);
    expect(afterClear).toEqual([null, null]);
  });

  it("a query update computed for the old identity is not sent after Authenticate is answered", async () => {
    const http = new ConvexHttpClient(backend.url);
    for (let i = 0; i < 5; i++) {
      const c = client();
      const name = `auth-race-${i}`;
      let latest: { subject: string | null; value: number } | undefined;
      c.onUpdate(anyApi.identity.subjectAndCounter, { name }, (v) => (latest = v as typeof latest));
      await nextValue(c, anyApi.identity.subjectAndCounter, { name }, () => true);
      const token = await signToken(dataDir, backend.siteUrl, `racer${i}`);
      const confirmed = new Promise((resolve) => c.setAuth(async () => token, resolve));
      // Another client's commit lands while the token is being verified.
      await Promise.all([http.mutation(anyApi.counters.increment, { name }), confirmed]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(latest).toEqual({ subject: `racer${i}`, value: 1 });
    }
  });

  const signedIn = async (subject: string) => {
    const { c, identity } = authState(await signToken(dataDir, backend.siteUrl, subject));
    expect(await identity).toBe(true);
    return c;
  };

  it("signed-in subscribers of a query that does not read the identity share its one run per commit", async () => {
    const name = "fan-out";
    const watchers = await Promise.all(
      ["fan-a", "fan-b", "fan-c"].map(async (subject) => {
        const c = await signedIn(subject);
        const seen: number[] = [];
        c.onUpdate(anyApi.counters.get, { name }, (v) => seen.push(v as number));
        await nextValue<number>(c, anyApi.counters.get, { name }, (v) => v === 0);
        return { c, seen };
      }),
    );
    const runsBefore = backend.subscriptions.runs;
    for (const value of [1, 2]) {
      await watchers[0].c.mutation(anyApi.counters.increment, { name });
      // The mutating client's answer comes after its own subscription has the commit's effect.
      expect(watchers[0].seen.at(-1)).toBe(value);
      for (const { c } of watchers)
        await nextValue<number>(c, anyApi.counters.get, { name }, (v) => v === value);
    }
    expect(backend.subscriptions.runs - runsBefore).toBe(2);
    // One update per commit each, none repeated or skipped.
    for (const { seen } of watchers) expect(seen).toEqual([0, 1, 2]);
  });

  it("a subscriber that waited for another caller's run of a query reading the identity gets its own result", async () => {
    const name = "per-identity";
    type Seen = { subject: string | null; value: number };
    const watchers = await Promise.all(
      ["own-a", "own-b", "own-c"].map(async (subject) => {
        const c = await signedIn(subject);
        const seen: Seen[] = [];
        c.onUpdate(anyApi.identity.subjectAndCounter, { name }, (v) => seen.push(v as Seen));
        await nextValue<Seen>(c, anyApi.identity.subjectAndCounter, { name }, () => true);
        return { subject, c, seen };
      }),
    );
    const runsBefore = backend.subscriptions.runs;
    await new ConvexHttpClient(backend.url).mutation(anyApi.counters.increment, { name });
    for (const { subject, c, seen } of watchers) {
      await nextValue<Seen>(c, anyApi.identity.subjectAndCounter, { name }, (v) => v.value === 1);
      expect(seen).toEqual([
        { subject, value: 0 },
        { subject, value: 1 },
      ]);
    }
    expect(backend.subscriptions.runs - runsBefore).toBe(3);
  });

  it("refuses an expired token", async () => {
    const expired = await signToken(dataDir, backend.siteUrl, "user2", {
      expiresIn: Math.floor(Date.now() / 1000) - 60,
    });
    expect(await authState(expired).identity).toBe(false);
  });

  it("refuses a token signed with another key", async () => {
    const other = await generateKeyPair("RS256", { extractable: true });
    const forged = await signToken(dataDir, backend.siteUrl, "user3", {
      privateKey: await exportPKCS8(other.privateKey),
    });
    expect(await authState(forged).identity).toBe(false);
  });
});

describe("HTTP API, storage and HTTP actions", () => {
  it("ConvexHttpClient runs queries and mutations, with ConvexError data", async () => {
    const http = new ConvexHttpClient(backend.url);
    await http.mutation(anyApi.messages.send, { channel: "http", body: "over http" });
    expect(bodies(await http.query(anyApi.messages.list, { channel: "http" }))).toEqual([
      "over http",
    ]);
    await expect(
      http.mutation(anyApi.messages.send, { channel: "http", body: "" }),
    ).rejects.toMatchObject({
      data: { code: "EMPTY" },
    });
    await expect(
      http.mutation(anyApi.messages.insertInternal, { channel: "http", body: "x" }),
    ).rejects.toThrow(/Could not find public function/);
  });

  it("an internal query's result is never shared with a non-admin subscriber", async () => {
    const admin = client();
    (admin as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
    await nextValue<number>(admin, anyApi.counters.getInternal, { name: "secret" }, (v) => v === 0);
    admin.onUpdate(anyApi.counters.getInternal, { name: "secret" }, () => {});
    const visitor = client();
    const error = await new Promise<Error>((resolve) =>
      visitor.onUpdate(anyApi.counters.getInternal, { name: "secret" }, () => {}, resolve),
    );
    expect(error.message).toMatch(/Could not find public function/);
  });

  it("the admin key may run internal functions", async () => {
    const admin = new ConvexHttpClient(backend.url);
    (admin as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
    await admin.mutation(anyApi.messages.insertInternal, { channel: "admin", body: "internal" });
    expect(bodies(await admin.query(anyApi.messages.list, { channel: "admin" }))).toEqual([
      "internal",
    ]);
  });

  it("answers CORS preflight", async () => {
    const res = await fetch(`${backend.url}/api/action`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://127.0.0.1:5173",
        "Access-Control-Request-Headers": "content-type,convex-client",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Convex-Client/);
  });

  it("uploads a file, then serves it with its content type; refuses oversized uploads", async () => {
    const http = new ConvexHttpClient(backend.url);
    const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
    expect(uploadUrl.startsWith(backend.url)).toBe(true);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const res = await fetch(uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: bytes,
    });
    const { storageId } = (await res.json()) as { storageId: string };
    const fileUrl: string = await http.query(anyApi.files.url, { storageId });
    const file = await fetch(fileUrl);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    const tooBig = await fetch(uploadUrl, {
      method: "POST",
      body: new Uint8Array(21 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
  });

  it("file URLs need their token and answer 404 otherwise; uploads need a generated URL", async () => {
    const http = new ConvexHttpClient(backend.url);
    const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
    const upload = (url: string) =>
      fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "private" });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(((await (await upload(uploadUrl)).json()) as { storageId: string }).storageId);
    const fileUrl = new URL(await http.query(anyApi.files.url, { storageId: ids[0] }));
    expect(fileUrl.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    expect(await (await fetch(fileUrl)).text()).toBe("private");
    const bare = `${backend.url}/api/storage/${ids[0]}`;
    const otherToken = new URL(
      await http.query(anyApi.files.url, { storageId: ids[1] }),
    ).searchParams.get("token");
    const missing = encodeId(tableNumberOf(ids[1])!, newInternalId()); // a storage id of no file
    const malformed = `${backend.url}/api/storage/%E0${ids[0]}?token=${fileUrl.searchParams.get("token")}`;
    for (const url of [
      bare,
      `${bare}?token=`,
      `${bare}?token=${otherToken}`,
      `${backend.url}/api/storage/${missing}?token=${otherToken}`,
      malformed,
    ]) {
      const res = await fetch(url);
      expect([url, res.status]).toEqual([url, 404]);
      expect(await res.text()).toBe("File not found");
    }

    const base = `${backend.url}/api/storage/upload`;
    const [expiry, signature] = new URL(uploadUrl).searchParams.get("token")!.split(".");
    const past = String(Date.now() - 1000);
    for (const url of [
      base,
      `${base}?token=${expiry}`,
      `${base}?token=${expiry}.${signature}x`,
      `${base}?token=${Number(expiry) + 1}.${signature}`,
      `${base}?token=${past}.${signature}`,
    ]) {
      expect([url, (await upload(url)).status]).toEqual([url, 401]);
    }
  });

  it("HTTP actions storing files in parallel, alongside uploads and mutations, all succeed", async () => {
    const http = new ConvexHttpClient(backend.url);
    const stores = Array.from({ length: 6 }, (_, i) =>
      fetch(`${backend.siteUrl}/api/store`, {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: `stored ${i}`,
      }),
    );
    const uploads = Array.from({ length: 3 }, async (_, i) =>
      fetch(await http.mutation(anyApi.files.generateUploadUrl, {}), {
        method: "POST",
        body: `uploaded ${i}`,
      }),
    );
    const writes = Array.from({ length: 6 }, () =>
      http.mutation(anyApi.counters.increment, { name: "beside-stores" }),
    );
    const responses = await Promise.all([...stores, ...uploads]);
    await Promise.all(writes);
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    const texts = await Promise.all(
      responses.map(async (r) => {
        const { storageId } = (await r.json()) as { storageId: string };
        return await (await fetch(await http.query(anyApi.files.url, { storageId }))).text();
      }),
    );
    expect(texts).toEqual([
      ...Array.from({ length: 6 }, (_, i) => `stored ${i}`),
      ...Array.from({ length: 3 }, (_, i) => `uploaded ${i}`),
    ]);
    expect(await http.query(anyApi.counters.get, { name: "beside-stores" })).toBe(6);
  });

  it("routes HTTP actions to convex/http.ts with the Bearer token verified", async () => {
    const anonymous = await fetch(`${backend.siteUrl}/api/whoami`);
    expect(await anonymous.json()).toEqual({ subject: null });
    const token = await signToken(dataDir, backend.siteUrl, "site-user");
    const signed = await fetch(`${backend.siteUrl}/api/whoami`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(await signed.json()).toEqual({ subject: "site-user" });
    const forged = await fetch(`${backend.siteUrl}/api/whoami`, {
      headers: { Authorization: `Bearer ${token}x` },
    });
    // As on Convex, the action runs; reading the identity throws, and this handler does not catch it.
    expect(forged.status).toBe(500);
    const echo = await fetch(`${backend.siteUrl}/api/echo-url?x=1`, {
      method: "POST",
      body: "payload",
    });
    expect(await echo.json()).toEqual({
      url: `${backend.siteUrl}/api/echo-url?x=1`,
      body: "payload",
    });
    expect((await fetch(`${backend.siteUrl}/nowhere`)).status).toBe(404);
  });
});
