/**
 * Web Push to phones: subscriptions per user and device, which notifications ring a phone, and
 * what happens to a delivery. The sending itself is `push:send` (an action); the crypto is webPush.ts.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { Locale } from "../constants";
import { env, type MutationCtx, type QueryCtx } from "../_generated/server";
import { fail } from "./errors";
import { pushEndpointProblem } from "./pushEndpoint";
import { getSettings } from "./settings";
import { decodeSubscriptionKeys, type SubscriptionKeys, type VapidKeys } from "./webPush";
import { noticeText } from "../rules/notificationText";

export const PUSH_LIMITS = {
  labelMaxLength: 120,
  /** Devices per user; a new one past this replaces the one subscribed longest ago. */
  devicesPerUser: 10,
  /** Tries of one delivery while the push service answers 429 or 5xx (or cannot be reached). */
  attempts: 5,
};

/**
 * The notifications that ring a phone: a professional's new requests and cancellations, a
 * customer's job accepted, professional on the way, arrived (and a professional's cancellation);
 * money that waits for an answer or was settled: cash to confirm, a cancelled booking's cash to
 * answer, a cash dispute settled, a payout recorded, cash commission received.
 */
const PUSHED_KINDS = new Set([
  "booking.requested",
  "booking.cancelled",
  "booking.accepted",
  "booking.en_route",
  "booking.arrived",
  "cash.recorded",
  "cash.cancelled",
  "cash.settled",
  "payout.recorded",
  "settlement.recorded",
]);
/** Where a tap on a notification of no booking leads. */
const PAGE_OF_KIND: Record<string, string> = {
  "payout.recorded": "/professional/earnings",
  "settlement.recorded": "/professional/earnings",
};
/** How long a money notice of no booking may wait at the push service. */
const MONEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The deployment's VAPID keys (`VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`: base64url P-256, as web-push
 * and @pushforge/builder generate them; `VAPID_SUBJECT`: a mailto: or https: contact), or null when
 * push is not configured.
 */
export function vapidKeys(): VapidKeys | null {
  const publicKey = env.VAPID_PUBLIC_KEY;
  const privateKey = env.VAPID_PRIVATE_KEY;
  if (!publicKey || !privateKey) return null;
  return {
    publicKey,
    privateKey,
    subject: env.VAPID_SUBJECT || "mailto:admin@gharsewa.np",
  };
}

/** Only a browser's push service may be a subscription's endpoint (model/pushEndpoint.ts). */
function checkEndpoint(endpoint: string): void {
  if (pushEndpointProblem(endpoint) !== null) {
    fail("INVALID_INPUT", "This is not a push subscription this app can use.");
  }
}

async function byEndpoint(ctx: QueryCtx, endpoint: string) {
  return await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_endpoint", (q) => q.eq("endpoint", endpoint))
    .unique();
}

/**
 * Stores this device's subscription for `viewer`. A row stays its owner's: an endpoint another account
 * subscribed is refused (`DEVICE_TAKEN`), else anyone who learnt it could take that account's alerts.
 * The app signs out by ending the browser's subscription, so a device that changes hands gets a new
 * endpoint; a browser still holding an old account's answers DEVICE_TAKEN and subscribes afresh.
 */
export async function subscribe(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: { endpoint: string; keys: SubscriptionKeys; label?: string },
): Promise<null> {
  if (viewer.role !== "professional" && viewer.role !== "customer")
    fail("FORBIDDEN", "Only customers and professionals get booking alerts.");
  checkEndpoint(args.endpoint);
  if (decodeSubscriptionKeys(args.keys) === null)
    fail("INVALID_INPUT", "This is not a push subscription this app can use.");
  const label = (args.label ?? "").trim().slice(0, PUSH_LIMITS.labelMaxLength);
  const fields = {
    userId: viewer._id,
    endpoint: args.endpoint,
    p256dh: args.keys.p256dh,
    auth: args.keys.auth,
    userAgent: label,
    createdAt: Date.now(),
  };
  const existing = await byEndpoint(ctx, args.endpoint);
  if (existing !== null && existing.userId !== viewer._id)
    fail("DEVICE_TAKEN", "This device's alerts belong to another account.");
  if (existing !== null) {
    await ctx.db.replace("pushSubscriptions", existing._id, fields);
    return null;
  }
  const devices = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_userId", (q) => q.eq("userId", viewer._id))
    .take(PUSH_LIMITS.devicesPerUser);
  if (devices.length >= PUSH_LIMITS.devicesPerUser) {
    const oldest = devices.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
    await ctx.db.delete("pushSubscriptions", oldest._id);
  }
  await ctx.db.insert("pushSubscriptions", fields);
  return null;
}

/** Removes the viewer's subscription of this device; false when they have none for `endpoint`. */
export async function unsubscribe(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  endpoint: string,
): Promise<boolean> {
  const existing = await byEndpoint(ctx, endpoint);
  if (existing === null || existing.userId !== viewer._id) return false;
  await ctx.db.delete("pushSubscriptions", existing._id);
  return true;
}

/**
 * Whether alerts reach the viewer on the device with `endpoint`, and how the last one went: sent,
 * failed or retrying, and when. What the push service answered stays in the server's log and row.
 */
export async function deviceStatus(ctx: QueryCtx, viewer: Doc<"users">, endpoint: string) {
  const existing = await byEndpoint(ctx, endpoint);
  if (existing === null || existing.userId !== viewer._id) return { on: false, lastResult: null };
  const last = existing.lastResult;
  return { on: true, lastResult: last ? { status: last.status, at: last.at } : null };
}

/**
 * What a notification carries to the phone: only what it shows (worded in the recipient's
 * language, `lang`), and where a tap leads.
 */
export type PushMessage = {
  kind: string;
  title: string;
  body: string;
  url: string;
  bookingId: string;
  lang?: Locale;
};

/** A message may wait at the push service this much less than the request's expiry. */
const EXPIRY_MARGIN_MS = 60_000;

/** A notification as it is created: for whom, its kind and params, its English words. */
export type NewNotification = {
  userId: Id<"users">;
  kind: string;
  title: string;
  body: string;
  params?: Record<string, string>;
  bookingId?: Id<"bookings">;
};

/**
 * Schedules one push per device of the notification's user, when its kind rings a phone and push
 * is configured. Called where the notification is inserted, in the same transaction.
 */
export async function pushNotification(ctx: MutationCtx, n: NewNotification): Promise<void> {
  if (!PUSHED_KINDS.has(n.kind) || vapidKeys() === null) return;
  if (n.bookingId === undefined) {
    const url = PAGE_OF_KIND[n.kind];
    if (url !== undefined)
      await pushToUser(
        ctx,
        n.userId,
        (lang) => ({ kind: n.kind, ...noticeText(lang, n), url, bookingId: "" }),
        MONEY_TTL_MS,
      );
    return;
  }
  const [booking, user, devices] = await Promise.all([
    ctx.db.get("bookings", n.bookingId),
    ctx.db.get("users", n.userId),
    ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", n.userId))
      .take(PUSH_LIMITS.devicesPerUser),
  ]);
  if (booking === null || devices.length === 0) return;
  const forProfessional = booking.professionalUserId === n.userId;
  // The phone shows what the app would: the notification in the language the user chose.
  const lang = user?.language ?? "en";
  const message: PushMessage = {
    kind: n.kind,
    ...noticeText(lang, n),
    lang,
    url: forProfessional
      ? `/professional-dashboard?booking=${encodeURIComponent(booking._id)}`
      : `/customer/profile?tab=bookings&booking=${encodeURIComponent(booking._id)}`,
    bookingId: booking._id,
  };
  // Past the request's expiry (the admin's setting) an alert is no use: the push service drops it.
  const deliverBy =
    Date.now() + (await getSettings(ctx)).bookingExpiryMinutes * 60_000 - EXPIRY_MARGIN_MS;
  for (const device of devices) {
    await ctx.scheduler.runAfter(0, internal.push.send, {
      subscriptionId: device._id,
      message,
      deliverBy,
      attempt: 1,
    });
  }
}

export type DeliveryOutcome =
  | { kind: "sent"; status: number }
  | { kind: "gone"; status: number }
  | { kind: "retry"; status: number; afterMs: number }
  | { kind: "failed"; status: number; reason: string };

const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * What a push service's answer means (RFC 8030 §5, §7.3): 201 delivered to the service; 404/410
 * the subscription is gone; 429/5xx (or no answer, status 0) try again later, as the service's
 * Retry-After says or with exponential backoff; anything else, a redirect too (push services do not
 * redirect, and following one could lead anywhere), will not get better by retrying.
 */
export function deliveryOutcome(
  status: number,
  retryAfter: string | null,
  attempt: number,
): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: "sent", status };
  if (status === 404 || status === 410) return { kind: "gone", status };
  const transient = status === 0 || status === 429 || status >= 500;
  if (!transient) return { kind: "failed", status, reason: `push service answered ${status}` };
  if (attempt >= PUSH_LIMITS.attempts)
    return { kind: "failed", status, reason: `gave up after ${attempt} attempts` };
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  const afterMs = Number.isFinite(seconds)
    ? seconds * 1000
    : retryAfter !== null && Number.isFinite(Date.parse(retryAfter))
      ? Date.parse(retryAfter) - Date.now()
      : 5_000 * 2 ** (attempt - 1);
  return { kind: "retry", status, afterMs: Math.min(Math.max(afterMs, 1_000), MAX_BACKOFF_MS) };
}

/** Records how a delivery went: a gone subscription is deleted, a transient failure retried. */
export async function recordDelivery(
  ctx: MutationCtx,
  args: {
    subscriptionId: Id<"pushSubscriptions">;
    outcome: DeliveryOutcome;
    retry: { message: PushMessage; deliverBy: number; attempt: number };
  },
): Promise<void> {
  const { subscriptionId, outcome, retry } = args;
  const subscription = await ctx.db.get("pushSubscriptions", subscriptionId);
  if (subscription === null) return;
  const at = Date.now();
  if (outcome.kind === "gone") {
    await ctx.db.delete("pushSubscriptions", subscriptionId);
    console.log(`push: subscription ${subscriptionId} is gone (${outcome.status}), removed`);
    return;
  }
  if (outcome.kind === "retry" && at + outcome.afterMs < retry.deliverBy) {
    await ctx.scheduler.runAfter(outcome.afterMs, internal.push.send, {
      subscriptionId,
      message: retry.message,
      deliverBy: retry.deliverBy,
      attempt: retry.attempt + 1,
    });
    await ctx.db.patch("pushSubscriptions", subscriptionId, {
      lastResult: { status: "retrying", at, httpStatus: outcome.status },
    });
    return;
  }
  await ctx.db.patch("pushSubscriptions", subscriptionId, {
    lastResult:
      outcome.kind === "sent"
        ? { status: "sent", at, httpStatus: outcome.status }
        : {
            status: "failed",
            at,
            httpStatus: outcome.status,
            reason: outcome.kind === "failed" ? outcome.reason : "expired before it could be sent",
          },
  });
}

/** Requests shown to the open dashboard's sound and title: at most this many. */
const WAITING_SHOWN = 50;
const TAKEN: Doc<"bookings">["status"][] = [
  "accepted",
  "en_route",
  "arrived",
  "in_progress",
  "completed",
  "reviewed",
];

/**
 * What the open dashboard signals: the requests waiting for the professional's answer (newest
 * first), and whether they have taken a job yet (the moment the app offers its install).
 */
export async function dashboardSignals(ctx: QueryCtx, viewer: Doc<"users">) {
  const pro = await ctx.db
    .query("professionals")
    .withIndex("by_userId", (q) => q.eq("userId", viewer._id))
    .unique();
  if (pro === null) return { waiting: [], hasTakenJob: false };
  const byStatus = (status: Doc<"bookings">["status"]) =>
    ctx.db
      .query("bookings")
      .withIndex("by_professionalId_and_status", (q) =>
        q.eq("professionalId", pro._id).eq("status", status),
      );
  const [waiting, ...taken] = await Promise.all([
    byStatus("requested").order("desc").take(WAITING_SHOWN),
    ...TAKEN.map((status) => byStatus(status).first()),
  ]);
  return { waiting: waiting.map((b) => b._id), hasTakenJob: taken.some((b) => b !== null) };
}

/**
 * Schedules one push of `message` (worded by `word` in the user's language) per device of `userId`,
 * when push is configured; a delivery later than `ttlMs` from now is dropped by the push service.
 */
export async function pushToUser(
  ctx: MutationCtx,
  userId: Id<"users">,
  word: (lang: Locale) => Omit<PushMessage, "lang">,
  ttlMs: number,
): Promise<void> {
  if (vapidKeys() === null) return;
  const [user, devices] = await Promise.all([
    ctx.db.get("users", userId),
    ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .take(PUSH_LIMITS.devicesPerUser),
  ]);
  const lang = user?.language ?? "en";
  const message: PushMessage = { ...word(lang), lang };
  for (const device of devices) {
    await ctx.scheduler.runAfter(0, internal.push.send, {
      subscriptionId: device._id,
      message,
      deliverBy: Date.now() + ttlMs,
      attempt: 1,
    });
  }
}
