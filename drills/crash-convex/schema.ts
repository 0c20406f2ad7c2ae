import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

/** Tables for the crash and reconnect drills: each write is two inserts and a counter update. */
export default defineSchema({
  firsts: defineTable({ key: v.string() }).index("by_key", ["key"]),
  seconds: defineTable({ key: v.string() }).index("by_key", ["key"]),
  counters: defineTable({ client: v.string(), value: v.number() }).index("by_client", ["client"]),
});
