import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { pushNotification, type NewNotification } from "./push";

/**
 * Every booking change and account event reaches its user through this one helper (and their phones:
 * model/push.ts). `kind` and `params` are what the app words in the reader's language
 * (src/i18n/notifications.ts); `title` and `body` are the English words kept for API clients.
 */
export async function notify(ctx: MutationCtx, n: NewNotification): Promise<Id<"notifications">> {
  await pushNotification(ctx, n);
  return await ctx.db.insert("notifications", n);
}
