import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  messages: defineTable({
    channel: v.string(),
    body: v.string(),
    author: v.optional(v.string()),
  }).index("by_channel", ["channel"]),
  counters: defineTable({ name: v.string(), value: v.number() }).index("by_name", ["name"]),
  locations: defineTable({
    reporter: v.string(),
    city: v.string(),
    lat: v.number(),
    lng: v.number(),
  })
    .index("by_city", ["city"])
    .index("by_reporter", ["reporter"]),
  files: defineTable({ storageId: v.id("_storage"), name: v.string() }),
  items: defineTable({ list: v.string(), rank: v.number() }).index("by_list_rank", [
    "list",
    "rank",
  ]),
  articles: defineTable({
    title: v.string(),
    category: v.string(),
    rank: v.optional(v.number()),
  }).searchIndex("search_title", { searchField: "title", filterFields: ["category"] }),
  embeddings: defineTable({ label: v.string(), kind: v.string(), vector: v.array(v.float64()) })
    .index("by_label", ["label"])
    .vectorIndex("by_vector", { vectorField: "vector", dimensions: 3, filterFields: ["kind"] }),
  jobLog: defineTable({ note: v.string() }),
  blobs: defineTable({ value: v.optional(v.any()), extra: v.optional(v.any()) }),
});
