import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  things: defineTable({
    value: v.optional(v.any()),
    tag: v.optional(v.string()),
    n: v.optional(v.number()),
    nested: v.optional(v.object({ at: v.optional(v.any()) })),
  })
    .index("by_value", ["value"])
    .index("by_tag_and_n", ["tag", "n"])
    .index("by_nested_at", ["nested.at"]),
  others: defineTable({ name: v.string() }),
});
