import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { PushMessage } from "./model/push";
import { upsertCatalog } from "./model/catalog";
import { base64UrlEncode } from "./model/webPush";
import {
  billedBooking,
  errorCode,
  FAN_JOB_PAISA,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

/** A subscription as a browser's PushSubscription.toJSON() gives it (keys of a real P-256 pair). */
async function browserSubscription(endpoint: string) {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  const p256dh = base64UrlEncode(
    new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)),
  );
  const auth = base64UrlEncode(crypto.getRandomValues(new Uint8Array(16)));
  return { endpoint, keys: { p256dh, auth } };
}

beforeEach(async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
  ]);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  vi.stubEnv("VAPID_PUBLIC_KEY", base64UrlEncode(publicKey));
  vi.stubEnv("VAPID_PRIVATE_KEY", (await crypto.subtle.exportKey("jwk", pair.privateKey)).d!);
  vi.stubEnv("VAPID_SUBJECT", "mailto:ops@gharsewa.np");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const pro = await insertProfessional(t, { name: "Ram Thapa", city: "kathmandu" });
  const otherPro = await insertProfessional(t, { name: "Hari Rai", city: "kathmandu" });
  const wiring = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) =>
          q.eq("category", "electrical").eq("name", "House Wiring"),
        )
        .unique())!._id,
  );
  const book = () =>
    customer.as.mutation(api.bookings.create, {
      professionalId: pro.professionalId,
      serviceIds: [wiring],
      address: "House 12, Baneshwor",
      city: "kathmandu",
      scheduledFor: Date.now() + 30 * 60_000,
    });
  return { t, customer, pro, otherPro, book };
}

type PushArgs = {
  subscriptionId: Id<"pushSubscriptions">;
  message: PushMessage;
  deliverBy: number;
  attempt: number;
};

async function scheduledPushes(t: TestConvex) {
  const jobs = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
  return jobs
    .filter((j) => j.name === "push:send" && j.state.kind === "pending")
    .map((j) => j.args[0] as PushArgs);
}

/**
 * Books, and takes the push that scheduled out of the scheduler for the test to send itself. The
 * scheduler's timer is held meanwhile: run for real, the scheduled send raced the test's own and
 * reached its stubbed fetch first on a loaded machine.
 */
async function bookAndTakePush(s: { t: TestConvex; book: () => Promise<unknown> }) {
  vi.useFakeTimers();
  try {
    await s.book();
    const [push] = await scheduledPushes(s.t);
    await s.t.run(async (ctx) => {
      for (const job of await ctx.db.system.query("_scheduled_functions").collect())
        if (job.name === "push:send" && job.state.kind === "pending")
          await ctx.scheduler.cancel(job._id);
    });
    return push;
  } finally {
    vi.useRealTimers();
  }
}

async function subscriptionIds(t: TestConvex, userId: Id<"users">) {
  const rows = await t.run((ctx) =>
    ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .collect(),
  );
  return rows.map((r) => r._id);
}

describe("who gets pushes", () => {
  test("a new request schedules exactly one push per subscribed device of its professional", async () => {
    const { t, pro, otherPro, customer, book } = await setup();
    for (const n of [1, 2])
      await pro.as.mutation(
        api.push.subscribe,
        await browserSubscription(`https://fcm.googleapis.com/fcm/send/pro/${n}`),
      );
    await otherPro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/other"),
    );
    await customer.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/customer"),
    );

    const bookingId = await book();
    const pushes = await scheduledPushes(t);
    expect(pushes.map((p) => p.subscriptionId).sort()).toEqual(
      (await subscriptionIds(t, pro.userId)).sort(),
    );
    for (const p of pushes) {
      expect(p.message).toMatchObject({
        kind: "booking.requested",
        url: `/professional-dashboard?booking=${encodeURIComponent(bookingId)}`,
        bookingId,
      });
      expect(p.attempt).toBe(1);
      // within the admin's expiry setting (30 minutes by default)
      expect(p.deliverBy).toBeLessThan(Date.now() + 30 * 60_000);
    }
  });

  test("the customer's phone hears of accepted, on the way and arrived, with a link to My Bookings", async () => {
    const { t, pro, customer, book } = await setup();
    const bookingId = await book();
    await customer.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/c"),
    );
    for (const step of [api.bookings.accept, api.bookings.startTrip, api.bookings.arrive])
      await pro.as.mutation(step, { bookingId });
    const kinds = (await scheduledPushes(t)).map((p) => p.message.kind);
    expect(kinds).toEqual(["booking.accepted", "booking.en_route", "booking.arrived"]);
    expect((await scheduledPushes(t))[0].message.url).toBe(
      `/customer/profile?tab=bookings&booking=${encodeURIComponent(bookingId)}`,
    );
  });

  test("each phone hears in its user's language, from the notification's kind and params", async () => {
    const { t, pro, customer, book } = await setup();
    await t.run((ctx) => ctx.db.patch("users", pro.userId, { language: "ne-NP" }));
    await pro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/p"),
    );
    await customer.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/c"),
    );
    const bookingId = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId });
    const [toPro, toCustomer] = (await scheduledPushes(t)).map((p) => p.message);
    expect(toPro).toMatchObject({
      kind: "booking.requested",
      lang: "ne-NP",
      title: "नयाँ बुकिङ अनुरोध",
      body: "Sita Sharmaले काठमाडौंमा घरको वायरिङ को अनुरोध गर्नुभयो।",
    });
    expect(toCustomer).toMatchObject({
      kind: "booking.accepted",
      lang: "en",
      title: "Booking accepted",
      body: "Ram Thapa accepted your booking for House Wiring.",
    });
    // the stored notification keeps its English words for API clients
    const stored = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
        .first(),
    );
    expect(stored?.title).toBe("New booking request");
  });

  test("a chat message rings the reader's phones at most once a minute per conversation, in their language", async () => {
    vi.useFakeTimers();
    const { t, pro, customer, book } = await setup();
    await t.run((ctx) => ctx.db.patch("users", pro.userId, { language: "ne-NP" }));
    await pro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/chat"),
    );
    const bookingId = await book();
    const before = (await scheduledPushes(t)).length;
    const sendAndAlert = async (quickReply: "call_gate" | "thanks") => {
      await customer.as.mutation(api.chat.send, { bookingId, quickReply });
      vi.runOnlyPendingTimers();
      await t.finishInProgressScheduledFunctions();
    };
    await sendAndAlert("call_gate");
    await sendAndAlert("thanks");
    const chat = (await scheduledPushes(t)).slice(before);
    expect(chat.map((p) => p.message)).toEqual([
      expect.objectContaining({
        kind: "chat.message",
        title: "Sita Sharma",
        body: "कृपया गेटमा फोन गर्नुहोस्",
        url: `/bookings/${encodeURIComponent(bookingId)}/chat`,
      }),
    ]);
    vi.advanceTimersByTime(60_000);
    await sendAndAlert("thanks");
    expect((await scheduledPushes(t)).slice(before)).toHaveLength(2);
  });

  test("cash to confirm rings the customer's phone; a settled dispute both; a payout the professional's", async () => {
    // the pushes stay scheduled: none is sent while the test reads them
    vi.useFakeTimers();
    const { t, pro, customer } = await setup();
    const admin = await insertAdmin(t);
    await t.run((ctx) => ctx.db.patch("users", pro.userId, { language: "ne-NP" }));
    await customer.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/c"),
    );
    await pro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/p"),
    );
    const bookingId = await billedBooking(t, customer.userId, pro, "completed");
    await pro.as.mutation(api.cash.markReceived, { bookingId, amountPaisa: FAN_JOB_PAISA });
    await customer.as.mutation(api.cash.dispute, {
      bookingId,
      text: "I paid only Nrs. 500, not the full bill.",
    });
    const reportId = (await t.run((ctx) => ctx.db.query("payments").first()))!.cash!.reportId!;
    await admin.as.mutation(api.cashDisputes.settle, {
      reportId,
      outcome: "paid",
      reason: "The professional showed the receipt.",
    });
    const balance = await admin.as.query(api.payouts.balances, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    const due = balance.page.find((b) => b.professionalId === pro.professionalId)!.duePaisa;
    expect(due).toBeLessThan(0); // cash held: nothing to pay out; record a payout on another job
    await billedBooking(t, customer.userId, pro, "completed", { paidBy: "esewa" });
    const { page } = await admin.as.query(api.payouts.balances, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    const seenDuePaisa = page.find((b) => b.professionalId === pro.professionalId)!.duePaisa;
    await admin.as.mutation(api.payouts.record, {
      professionalId: pro.professionalId,
      method: "esewa",
      reference: "ESEWA-PAYOUT-1",
      amountPaisa: seenDuePaisa,
      seenDuePaisa,
    });
    const pushes = (await scheduledPushes(t)).map((p) => p.message);
    expect(pushes.map((m) => m.kind)).toEqual([
      "cash.recorded",
      "cash.settled",
      "cash.settled",
      "payout.recorded",
    ]);
    expect(pushes[0]).toMatchObject({
      lang: "en",
      title: "Confirm your cash payment",
      url: `/customer/profile?tab=bookings&booking=${encodeURIComponent(bookingId)}`,
    });
    expect(pushes[3]).toMatchObject({
      lang: "ne-NP",
      title: "भुक्तानी पठाइयो",
      url: "/professional/earnings",
      bookingId: "",
    });
    expect(pushes[3].body).toContain("इसेवा");
  });

  test("nothing is scheduled while the deployment has no VAPID keys", async () => {
    const { t, pro, book } = await setup();
    await pro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/p"),
    );
    vi.stubEnv("VAPID_PRIVATE_KEY", "");
    await book();
    expect(await scheduledPushes(t)).toEqual([]);
  });
});

test("the open dashboard's signals: requests waiting for an answer, and whether a job was taken", async () => {
  const { pro, book } = await setup();
  expect(await pro.as.query(api.push.dashboardSignals, {})).toEqual({
    waiting: [],
    hasTakenJob: false,
  });
  const first = await book();
  const second = await book();
  expect(await pro.as.query(api.push.dashboardSignals, {})).toEqual({
    waiting: [second, first],
    hasTakenJob: false,
  });
  await pro.as.mutation(api.bookings.accept, { bookingId: first });
  expect(await pro.as.query(api.push.dashboardSignals, {})).toEqual({
    waiting: [second],
    hasTakenJob: true,
  });
});

describe("deliveries", () => {
  async function oneScheduledPush() {
    const s = await setup();
    await s.pro.as.mutation(
      api.push.subscribe,
      await browserSubscription("https://fcm.googleapis.com/fcm/send/p"),
    );
    const push = await bookAndTakePush(s);
    return { ...s, push };
  }

  test("a 410 from the push service removes the subscription", async () => {
    const { t, pro, push } = await oneScheduledPush();
    const fetch = vi.fn(async () => new Response(null, { status: 410 }));
    vi.stubGlobal("fetch", fetch);
    await t.action(internal.push.send, push);
    expect(fetch).toHaveBeenCalledOnce();
    expect(await subscriptionIds(t, pro.userId)).toEqual([]);
    expect(
      await pro.as.query(api.push.status, { endpoint: "https://fcm.googleapis.com/fcm/send/p" }),
    ).toEqual({
      on: false,
      lastResult: null,
    });
  });

  test("sends an encrypted high-urgency POST with a TTL inside the request's expiry, and records it", async () => {
    const { t, pro, push } = await oneScheduledPush();
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }),
    );
    vi.stubGlobal("fetch", fetch);
    await t.action(internal.push.send, push);
    const [url, init] = fetch.mock.calls[0];
    const headers = init.headers as Record<string, string>;
    expect(url).toBe("https://fcm.googleapis.com/fcm/send/p");
    expect(headers).toMatchObject({ "Content-Encoding": "aes128gcm", Urgency: "high" });
    expect(Number(headers.TTL)).toBeGreaterThan(0);
    expect(Number(headers.TTL)).toBeLessThan(30 * 60);
    expect(headers.Authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    // the payload travels encrypted: the booking id is not in the body
    expect(new TextDecoder().decode(init.body as Uint8Array)).not.toContain(push.message.bookingId);
    expect(
      await pro.as.query(api.push.status, { endpoint: "https://fcm.googleapis.com/fcm/send/p" }),
    ).toMatchObject({
      on: true,
      lastResult: { status: "sent" },
    });
  });

  test("429 and 5xx are retried with backoff, a bounded number of times", async () => {
    const { t, pro, push } = await oneScheduledPush();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 503 })),
    );
    let next: PushArgs | undefined = push;
    const attempts: number[] = [];
    while (next !== undefined) {
      await t.run(async (ctx) => {
        for (const job of await ctx.db.system.query("_scheduled_functions").collect())
          if (job.name === "push:send") await ctx.scheduler.cancel(job._id);
      });
      attempts.push(next.attempt);
      await t.action(internal.push.send, next);
      [next] = await scheduledPushes(t);
    }
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect(
      await pro.as.query(api.push.status, { endpoint: "https://fcm.googleapis.com/fcm/send/p" }),
    ).toEqual({ on: true, lastResult: { status: "failed", at: expect.any(Number) } });
    const row = await t.run(async (ctx) => (await ctx.db.query("pushSubscriptions").first())!);
    expect(row.lastResult).toMatchObject({ httpStatus: 503, reason: "gave up after 5 attempts" });
  });
});

describe("delivery reaches push services only", () => {
  async function pushTo(endpoint: string) {
    const s = await setup();
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/p");
    await s.pro.as.mutation(api.push.subscribe, sub);
    // a row stored before today's rules (or the allow-list changed since)
    await s.t.run(async (ctx) => {
      const row = (await ctx.db.query("pushSubscriptions").first())!;
      await ctx.db.patch("pushSubscriptions", row._id, { endpoint });
    });
    const push = await bookAndTakePush(s);
    return { ...s, push, endpoint };
  }

  test("a redirect is not followed: the delivery fails, is not retried, and the status says no more", async () => {
    const { t, pro, push, endpoint } = await pushTo("https://fcm.googleapis.com/fcm/send/p");
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response("internal answer", {
          status: 302,
          headers: { Location: "http://169.254.169.254/latest/meta-data/" },
        }),
    );
    vi.stubGlobal("fetch", fetch);
    await t.action(internal.push.send, push);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0][1]).toMatchObject({ redirect: "manual" });
    expect(fetch.mock.calls[0][1].signal).toBeInstanceOf(AbortSignal);
    expect(await scheduledPushes(t)).toEqual([]);
    expect(await pro.as.query(api.push.status, { endpoint })).toEqual({
      on: true,
      lastResult: { status: "failed", at: expect.any(Number) },
    });
  });

  test("a push service that never answers is given up after 10 s and retried later", async () => {
    const { t, pro, push, endpoint } = await pushTo("https://fcm.googleapis.com/fcm/send/p");
    let aborted = false;
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_, reject) =>
            init.signal!.addEventListener("abort", () => {
              aborted = true;
              reject(new DOMException("aborted", "AbortError"));
            }),
          ),
      ),
    );
    const started = Date.now();
    await t.action(internal.push.send, push);
    expect(aborted).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    expect(await pro.as.query(api.push.status, { endpoint })).toMatchObject({
      lastResult: { status: "retrying" },
    });
  }, 30_000);

  test("of an endless answer only the first kilobytes are read", async () => {
    const { t, push } = await pushTo("https://fcm.googleapis.com/fcm/send/p");
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16_384;
        controller.enqueue(new Uint8Array(16_384));
      },
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(endless, { status: 400 })),
    );
    await t.action(internal.push.send, push);
    expect(pulled).toBeLessThanOrEqual(3 * 16_384);
  });

  test.each([
    "https://169.254.169.254/latest/meta-data/",
    "https://127.0.0.1/push",
    "http://127.0.0.1:4700/push/x",
    "https://localhost/push",
  ])("a stored endpoint that is no push service (%s) is never fetched", async (endpoint) => {
    const { t, pro, push } = await pushTo(endpoint);
    const fetch = vi.fn(async () => new Response(null, { status: 201 }));
    vi.stubGlobal("fetch", fetch);
    await t.action(internal.push.send, push);
    expect(fetch).not.toHaveBeenCalled();
    expect(await pro.as.query(api.push.status, { endpoint })).toMatchObject({
      lastResult: { status: "failed" },
    });
  });
});

describe("subscribe and unsubscribe", () => {
  test("refuse visitors, admins and what is no push subscription", async () => {
    const { t, pro } = await setup();
    const admin = await insertAdmin(t);
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/x");
    expect(await errorCode(t.mutation(api.push.subscribe, sub))).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.mutation(api.push.unsubscribe, { endpoint: sub.endpoint }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await errorCode(admin.as.mutation(api.push.subscribe, sub))).toBe("FORBIDDEN");
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/x",
      "javascript:alert(1)",
      `https://fcm.googleapis.com/fcm/send/${"x".repeat(1100)}`,
    ]) {
      expect(await errorCode(pro.as.mutation(api.push.subscribe, { ...sub, endpoint }))).toBe(
        "INVALID_INPUT",
      );
    }
    expect(
      await errorCode(
        pro.as.mutation(api.push.subscribe, { ...sub, keys: { ...sub.keys, auth: "c2hvcnQ" } }),
      ),
    ).toBe("INVALID_INPUT");
  });

  test("only the browsers' push services may be endpoints, or the deployment's own list", async () => {
    const { pro } = await setup();
    const subscribe = async (endpoint: string) => {
      const call = pro.as.mutation(api.push.subscribe, await browserSubscription(endpoint));
      return await call.then(
        () => "OK",
        (error: unknown) => errorCode(Promise.reject(error)),
      );
    };
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/abc",
      "https://wns2-par02p.notify.windows.com/w/?token=abc",
    ])
      expect(await subscribe(endpoint)).toBe("OK");
    for (const endpoint of [
      "https://169.254.169.254/latest/meta-data/",
      "https://127.0.0.1:8443/x",
      "https://127.1/x",
      "https://2130706433/x",
      "https://0x7f000001/x",
      "https://10.0.0.1/x",
      "https://192.168.1.1/x",
      "https://[::1]:22/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:a9fe:a9fe]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://localhost/x",
      "https://push.localhost/x",
      "https://metadata.google.internal/x",
      "https://printer.local/x",
      "https://intranet/x",
      "https://fcm.googleapis.com./x",
      "https://fcm.googleapis.com:8443/x",
      "https://user:pw@fcm.googleapis.com/x",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evilpush.apple.com.example/x",
      "https://push.example.np/x",
      "http://127.0.0.1:4700/push/x", // only with PUSH_ALLOW_LOOPBACK_HTTP=1
    ])
      expect([endpoint, await subscribe(endpoint)]).toEqual([endpoint, "INVALID_INPUT"]);

    vi.stubEnv("PUSH_SERVICE_HOSTS", "push.gharsewa.example, *.push.partner.example");
    expect(await subscribe("https://push.gharsewa.example/x")).toBe("OK");
    expect(await subscribe("https://eu.push.partner.example/x")).toBe("OK");
    expect(await subscribe("https://fcm.googleapis.com/fcm/send/other")).toBe("INVALID_INPUT");
    expect(await subscribe("https://10.0.0.1/x")).toBe("INVALID_INPUT");

    vi.stubEnv("PUSH_ALLOW_LOOPBACK_HTTP", "1");
    expect(await subscribe("http://127.0.0.1:4700/push/x")).toBe("OK");
    expect(await subscribe("http://localhost:4700/push/x")).toBe("INVALID_INPUT");
    expect(await subscribe("https://127.0.0.1:4700/push/x")).toBe("INVALID_INPUT");
  });

  test("another user cannot unsubscribe someone's device", async () => {
    const { t, pro, customer } = await setup();
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/pro-phone");
    await pro.as.mutation(api.push.subscribe, sub);
    expect(await customer.as.mutation(api.push.unsubscribe, { endpoint: sub.endpoint })).toBe(
      false,
    );
    expect(await subscriptionIds(t, pro.userId)).toHaveLength(1);
    expect(await customer.as.query(api.push.status, { endpoint: sub.endpoint })).toEqual({
      on: false,
      lastResult: null,
    });
    expect(await pro.as.mutation(api.push.unsubscribe, { endpoint: sub.endpoint })).toBe(true);
    expect(await subscriptionIds(t, pro.userId)).toEqual([]);
  });

  test("an endpoint another account subscribed stays that account's (DEVICE_TAKEN)", async () => {
    const { t, pro, customer, otherPro } = await setup();
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/pro-phone");
    await pro.as.mutation(api.push.subscribe, sub);
    const before = await t.run((ctx) => ctx.db.query("pushSubscriptions").collect());
    // with the endpoint alone (own keys), and with the whole subscription
    const stolen = { ...(await browserSubscription(sub.endpoint)), label: "Attacker" };
    for (const [caller, args] of [
      [customer, stolen],
      [otherPro, sub],
    ] as const)
      expect(await errorCode(caller.as.mutation(api.push.subscribe, args))).toBe("DEVICE_TAKEN");
    expect(await t.run((ctx) => ctx.db.query("pushSubscriptions").collect())).toEqual(before);
    expect(await customer.as.query(api.push.status, { endpoint: sub.endpoint })).toEqual({
      on: false,
      lastResult: null,
    });
    // its owner subscribing again on the same device updates their own row
    await pro.as.mutation(api.push.subscribe, { ...sub, label: "Ram's phone" });
    const [row] = await t.run((ctx) => ctx.db.query("pushSubscriptions").collect());
    expect(row).toMatchObject({ _id: before[0]._id, userId: pro.userId, userAgent: "Ram's phone" });
  });
});
