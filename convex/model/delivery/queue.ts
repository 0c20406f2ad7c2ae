/**
 * Handing a message to `delivery:send` from a mutation: the send happens after the mutation
 * commits, in an action, so the caller's answer (and its timing) never waits for a gateway.
 */
import { v, type Infer } from "convex/values";
import { internal } from "../../_generated/api";
import type { MutationCtx } from "../../_generated/server";

export const message = v.union(
  v.object({ channel: v.literal("email"), to: v.string(), subject: v.string(), text: v.string() }),
  v.object({ channel: v.literal("sms"), to: v.string(), text: v.string() }),
);
export type QueuedMessage = Infer<typeof message>;

/** Tries of one message while its gateway answers 429/5xx or cannot be reached, and the wait before each retry. */
export const DELIVERY_RETRIES = { attempts: 4, backoffMs: 15_000 };

export async function queueMessage(ctx: MutationCtx, queued: QueuedMessage): Promise<void> {
  await ctx.scheduler.runAfter(0, internal.delivery.send, { message: queued, attempt: 1 });
}
