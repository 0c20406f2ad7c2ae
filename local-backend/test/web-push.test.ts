// Web Push end to end against the push service stand-in (push-service.ts): convex/model/webPush.ts
// messages decrypt and verify there, and a local backend running convex/ sends booking alerts to it.
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushRequest } from "../../convex/model/webPush.ts";
import { generateVapidKeys } from "../auth-keys.ts";
import type { Backend } from "../server.ts";
import { startPushService, type PushService } from "./push-service.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(() => service.close());

async function vapid() {
  const keys = await generateVapidKeys();
  return {
    publicKey: keys.VAPID_PUBLIC_KEY,
    privateKey: keys.VAPID_PRIVATE_KEY,
    subject: "mailto:ops@gharsewa.np",
  };
}

async function post(request: {
  endpoint: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
}) {
  return (
    await fetch(request.endpoint, { method: "POST", headers: request.headers, body: request.body })
  ).status;
}

describe("messages (RFC 8291 aes128gcm, RFC 8292 VAPID)", () => {
  it("decrypt at the push service to the payload sent, with a valid VAPID JWT", async () => {
    const sub = service.subscribe();
    const payload = JSON.stringify({ title: "New booking request", body: "नयाँ अनुरोध — Plumbing" });
    const now = Date.now();
    const request = await pushRequest({
      ...sub,
      payload,
      ttlSeconds: 1740,
      vapid: await vapid(),
      nowMs: now,
    });
    expect(await post({ endpoint: sub.endpoint, ...request })).toBe(201);
    const got = service.received.at(-1)!;
    expect(got.payload).toBe(payload);
    expect(got.subscriptionId).toBe(sub.id);
    expect(got).toMatchObject({ ttl: 1740, urgency: "high" });
    expect(got.claims.aud).toBe(service.origin);
    expect(got.claims.exp * 1000).toBeGreaterThan(now);
    expect(got.claims.exp * 1000).toBeLessThanOrEqual(now + 24 * 3600_000);
    expect(got.claims.sub).toBe("mailto:ops@gharsewa.np");
  });

  it("are refused when the body was altered or the JWT signed with another key", async () => {
    const sub = service.subscribe();
    const keys = await vapid();
    const request = await pushRequest({
      ...sub,
      payload: "{}",
      ttlSeconds: 60,
      vapid: keys,
      nowMs: Date.now(),
    });
    const altered = request.body.slice();
    altered[altered.length - 1] ^= 1;
    expect(await post({ endpoint: sub.endpoint, ...request, body: altered })).toBe(400);
    expect(service.refusals.at(-1)).toBe("400 record does not decrypt");

    // signed with another key pair, presented as ours
    const signed = await pushRequest({
      ...sub,
      payload: "{}",
      ttlSeconds: 60,
      vapid: await vapid(),
      nowMs: Date.now(),
    });
    const forged = {
      ...signed,
      headers: {
        ...signed.headers,
        Authorization: signed.headers.Authorization.replace(/k=.*$/, `k=${keys.publicKey}`),
      },
    };
    expect(await post({ endpoint: sub.endpoint, ...forged })).toBe(403);
    expect(service.refusals.at(-1)).toBe("403 bad JWT signature");
  });
});

describe("a local backend", () => {
  let backend: Backend;
  /**
   * Demo customers with no open booking with professional@demo.np. One may request 20 bookings an
   * hour (rules/limits.ts), the demo's bookings included, so the measurement takes turns.
   */
  let customer: ConvexHttpClient;
  let customer2: ConvexHttpClient;
  let professional: ConvexHttpClient;
  let booking: { professionalId: string; serviceIds: string[]; city: string };
  const PASSWORD = "demo-password-1";

  async function signIn(provider: string, email: string) {
    const client = new ConvexHttpClient(backend.url, { logger: false });
    const { tokens } = (await client.action(anyApi.auth.signIn, {
      provider,
      params: { flow: "signIn", email, password: PASSWORD },
    })) as { tokens: { token: string } };
    client.setAuth(tokens.token);
    return client;
  }

  beforeAll(async () => {
    backend = await startTestBackend({
      convexDir: "convex",
      env: { PUSH_ALLOW_LOOPBACK_HTTP: "1", AUTH_LOG_LEVEL: "WARN" },
    });
    const admin = new ConvexHttpClient(backend.url, { logger: false });
    (admin as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
    await admin.action(anyApi.seed.init, { demo: true });
    [customer, customer2, professional] = await Promise.all([
      signIn("customer", "customer3@demo.np"),
      signIn("customer", "customer2@demo.np"),
      signIn("professional", "professional@demo.np"),
    ]);
    const me = (await professional.query(anyApi.professionals.me, {})) as { _id: string };
    const service = (await customer.query(anyApi.catalog.serviceDetails, {
      category: "Electrician",
      serviceName: "Light Fitting",
      location: "Nepalgunj",
    })) as { _id: string } | null;
    booking = { professionalId: me._id, serviceIds: [service!._id], city: "nepalgunj" };
  }, 60_000);
  afterAll(closeTestBackends);

  const requestBooking = (by = customer2) =>
    by.mutation(anyApi.bookings.create, {
      ...booking,
      address: "Ward 5, Dhamboji Chowk",
      scheduledFor: Date.now() + 3_600_000,
    }) as Promise<string>;

  it("alerts the professional's phone of a new request, encrypted, within the request's expiry", async () => {
    const sub = service.subscribe();
    await professional.mutation(anyApi.push.subscribe, {
      endpoint: sub.endpoint,
      keys: sub.keys,
      label: "test",
    });
    const before = service.received.length;
    const bookingId = await requestBooking();
    await service.waitForMessages(before + 1);
    const got = service.received.at(-1)!;
    expect(got.subscriptionId).toBe(sub.id);
    expect(JSON.parse(got.payload)).toEqual({
      kind: "booking.requested",
      title: "New booking request",
      body: expect.stringContaining("requested"),
      url: `/professional-dashboard?booking=${encodeURIComponent(bookingId)}`,
      bookingId,
      lang: "en",
    });
    expect(got.urgency).toBe("high");
    expect(got.ttl).toBeGreaterThan(0);
    expect(got.ttl).toBeLessThan(30 * 60); // the demo's expiry setting: 30 minutes
    await customer2.mutation(anyApi.bookings.cancel, { bookingId, reason: "Changed my plans" });
    await service.waitForMessages(before + 2);
    expect(JSON.parse(service.received.at(-1)!.payload)).toMatchObject({
      kind: "booking.cancelled",
      bookingId,
    });
    await professional.mutation(anyApi.push.unsubscribe, { endpoint: sub.endpoint });
  });

  it("forgets a subscription the push service says is gone", async () => {
    const sub = service.subscribe();
    await professional.mutation(anyApi.push.subscribe, { endpoint: sub.endpoint, keys: sub.keys });
    service.expire(sub.id);
    const refused = service.refusals.length;
    const bookingId = await requestBooking();
    await expect
      .poll(() => professional.query(anyApi.push.status, { endpoint: sub.endpoint }))
      .toEqual({ on: false, lastResult: null });
    expect(service.refusals.slice(refused)).toEqual(["410 subscription expired"]);
    await customer2.mutation(anyApi.bookings.cancel, { bookingId, reason: "Changed my plans" });
  });

  it("sends the push request within moments of the customer's Confirm (median of 20)", async () => {
    const sub = service.subscribe();
    await professional.mutation(anyApi.push.subscribe, { endpoint: sub.endpoint, keys: sub.keys });
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = service.received.length;
      const started = Date.now();
      const by = i % 2 === 0 ? customer : customer2;
      const bookingId = await requestBooking(by);
      await service.waitForMessages(before + 1);
      delays.push(service.received[before].at - started);
      await by.mutation(anyApi.bookings.cancel, { bookingId, reason: "Measured, cancelled" });
      await service.waitForMessages(before + 2);
    }
    delays.sort((a, b) => a - b);
    const median = delays[10];
    console.log(
      `push: Confirm → push request at the push service, median of 20: ${median} ms (max ${delays[19]} ms)`,
    );
    expect(median).toBeLessThan(1000);
  });
});
