/** Booking alerts on phones (Web Push): this device's subscription, and the deliveries. */
import { v } from "convex/values";
import { internalAction, internalMutation, internalQuery } from "./_generated/server";
import { internal } from "./_generated/api";
import { professionalQuery, sharedQuery, userMutation, userQuery } from "./functions";
import * as Push from "./model/push";
import { pushEndpointProblem } from "./model/pushEndpoint";
import { pushRequest } from "./model/webPush";
import { locale } from "./validators";

const keys = v.object({ p256dh: v.string(), auth: v.string() });
const message = v.object({
  kind: v.string(),
  title: v.string(),
  body: v.string(),
  url: v.string(),
  bookingId: v.string(),
  lang: v.optional(locale),
});

/** The key browsers subscribe with (`applicationServerKey`); null when the deployment has none. */
export const config = sharedQuery({
  args: {},
  returns: v.object({ publicKey: v.union(v.string(), v.null()) }),
  handler: async () => ({ publicKey: Push.vapidKeys()?.publicKey ?? null }),
});

/** Alerts for the signed-in customer or professional on this device (a PushSubscription's JSON). */
export const subscribe = userMutation({
  args: { endpoint: v.string(), keys, label: v.optional(v.string()) },
  returns: v.null(),
  handler: (ctx, args) => Push.subscribe(ctx, ctx.viewer, args),
});

/** No more alerts on this device (sign-out, or turned off); false if the viewer had none there. */
export const unsubscribe = userMutation({
  args: { endpoint: v.string() },
  returns: v.boolean(),
  handler: (ctx, { endpoint }) => Push.unsubscribe(ctx, ctx.viewer, endpoint),
});

/** Whether alerts are on for the viewer on the device with `endpoint`. */
export const status = userQuery({
  args: { endpoint: v.string() },
  returns: v.object({
    on: v.boolean(),
    lastResult: v.union(
      v.null(),
      v.object({
        status: v.union(v.literal("sent"), v.literal("failed"), v.literal("retrying")),
        at: v.number(),
      }),
    ),
  }),
  handler: (ctx, { endpoint }) => Push.deviceStatus(ctx, ctx.viewer, endpoint),
});

/** The open dashboard's new-request sound and title count, and its install offer. */
export const dashboardSignals = professionalQuery({
  args: {},
  returns: v.object({ waiting: v.array(v.id("bookings")), hasTakenJob: v.boolean() }),
  handler: (ctx) => Push.dashboardSignals(ctx, ctx.viewer),
});

export const forDelivery = internalQuery({
  args: { subscriptionId: v.id("pushSubscriptions") },
  handler: async (ctx, { subscriptionId }) => {
    const s = await ctx.db.get("pushSubscriptions", subscriptionId);
    return s && { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } };
  },
});

const outcome = v.union(
  v.object({ kind: v.literal("sent"), status: v.number() }),
  v.object({ kind: v.literal("gone"), status: v.number() }),
  v.object({ kind: v.literal("retry"), status: v.number(), afterMs: v.number() }),
  v.object({ kind: v.literal("failed"), status: v.number(), reason: v.string() }),
);

export const recordDelivery = internalMutation({
  args: {
    subscriptionId: v.id("pushSubscriptions"),
    outcome,
    retry: v.object({ message, deliverBy: v.number(), attempt: v.number() }),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Push.recordDelivery(ctx, args);
    return null;
  },
});

/** A push service that has not answered in this long is retried later. */
const SEND_TIMEOUT_MS = 10_000;
/** Of a push service's answer, only this much is read (for the log); the rest is dropped. */
const ANSWER_BYTES = 1024;

/** Up to `limit` bytes of the answer, as text; the rest of the body is cancelled unread. */
async function answerText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel();
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, limit));
}

/** POSTs `request` to the endpoint: no redirect followed, at most SEND_TIMEOUT_MS, a capped read. */
async function post(endpoint: string, request: RequestInit, attempt: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      ...request,
      redirect: "manual",
      signal: controller.signal,
    });
    // a browser-style fetch reports a redirect it did not follow as an opaque status 0
    const status = response.type === "opaqueredirect" ? 302 : response.status;
    const answer = await answerText(response, ANSWER_BYTES);
    if (status < 200 || status >= 300)
      console.log(`push: ${new URL(endpoint).host} answered ${status}: ${answer.slice(0, 200)}`);
    return Push.deliveryOutcome(status, response.headers.get("Retry-After"), attempt);
  } catch {
    // the push service could not be reached or did not answer in time: as transient as a 503
    return Push.deliveryOutcome(0, null, attempt);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends one encrypted message to one device's push service (scheduled by model/push.ts), with a
 * TTL that ends at `deliverBy`, and records the outcome. The endpoint is checked again: a row
 * stored under other rules, or before the allow-list changed, is never sent to.
 */
export const send = internalAction({
  args: {
    subscriptionId: v.id("pushSubscriptions"),
    message,
    deliverBy: v.number(),
    attempt: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, { subscriptionId, message, deliverBy, attempt }) => {
    const vapid = Push.vapidKeys();
    const subscription = await ctx.runQuery(internal.push.forDelivery, { subscriptionId });
    if (subscription === null || vapid === null) return null;
    const now = Date.now();
    const ttlSeconds = Math.floor((deliverBy - now) / 1000);
    const problem = pushEndpointProblem(subscription.endpoint);
    let result: Push.DeliveryOutcome;
    if (problem !== null) {
      result = { kind: "failed", status: 0, reason: `not a push service: ${problem}` };
    } else if (ttlSeconds <= 0) {
      result = { kind: "failed", status: 0, reason: "expired before it could be sent" };
    } else {
      const request = await pushRequest({
        ...subscription,
        payload: JSON.stringify(message),
        ttlSeconds,
        vapid,
        nowMs: now,
      });
      result = await post(subscription.endpoint, request, attempt);
    }
    await ctx.runMutation(internal.push.recordDelivery, {
      subscriptionId,
      outcome: result,
      retry: { message, deliverBy, attempt },
    });
    return null;
  },
});
