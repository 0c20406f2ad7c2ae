import { v } from "convex/values";
import { userQuery } from "./functions";
import { receiptFor } from "./model/receiptView";

/** A paid booking's receipt: its customer, its professional or an admin; null for anyone else. */
export const get = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: (ctx, { bookingId }) => receiptFor(ctx, ctx.viewer, bookingId),
});
