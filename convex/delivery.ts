import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalAction } from "./_generated/server";
import { DELIVERY_RETRIES, message } from "./model/delivery/queue";
import { send as sendMessage } from "./model/delivery/senders";

/** Sends one email or SMS (queued by model/delivery/queue.ts), again later while the gateway is busy or down. */
export const send = internalAction({
  args: { message, attempt: v.number() },
  returns: v.null(),
  handler: async (ctx, { message, attempt }) => {
    const outcome = await sendMessage(message);
    if (outcome.kind === "sent") return null;
    // never the message itself in a log: it holds a code
    console.warn(`delivery (${message.channel}) attempt ${attempt}: ${outcome.reason}`);
    if (outcome.kind === "retry" && attempt < DELIVERY_RETRIES.attempts) {
      await ctx.scheduler.runAfter(DELIVERY_RETRIES.backoffMs * attempt, internal.delivery.send, {
        message,
        attempt: attempt + 1,
      });
    }
    return null;
  },
});
