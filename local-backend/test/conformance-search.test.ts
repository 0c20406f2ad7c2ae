// Text search as Convex answers it (crates/search): tokens are runs of letters and digits (any
// script: Devanagari too), lowercased; only the query's last term is prefix-matched; results come in
// BM25 relevance order (ties newest first), so `.take(n)` gives the n most relevant; `q.eq` filters
// only on `filterFields`.
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenize } from "../engine/text-search.ts";
import { startBackend, type Backend } from "../server.ts";
import { fixtureConvexDir, removeTempDataDirs, tempDataDir } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir: tempDataDir(),
    convexDir: fixtureConvexDir,
  });
  http = new ConvexHttpClient(backend.url, { logger: false });
  // Inserted in this order on purpose: relevance order is neither creation order nor its reverse.
  const titles: [string, string][] = [
    ["cleaning", "home"],
    ["cleaning cleaning", "home"],
    ["home cleaning and painting services in kathmandu valley", "home"],
    ["plumber—Kathmandu, (24/7)", "repair"],
    ["electrician Lalitpur", "repair"],
    ["electric kettle repair", "repair"],
    ["राम बहादुर प्लम्बर", "repair"],
    ["सीता इलेक्ट्रिसियन", "repair"],
    ["gardener Pokhara", "garden"],
    ["gardener Pokhara", "garden"],
  ];
  await http.mutation(anyApi.articles.insert, {
    rows: titles.map(([title, category]) => ({ title, category })),
  });
});
afterAll(async () => {
  await backend.close();
  removeTempDataDirs();
});

const search = (text: string, extra: Record<string, unknown> = {}) =>
  http.query(anyApi.articles.search, { text, ...extra }) as Promise<string[]>;

describe("tokenizer (Convex's convex_en: alphanumeric runs, < 32 bytes, lowercased)", () => {
  it("splits on punctuation and symbols, not only whitespace", () => {
    expect(tokenize("plumber—Kathmandu, (24/7) KC's")).toEqual([
      "plumber",
      "kathmandu",
      "24",
      "7",
      "kc",
      "s",
    ]);
  });

  it("keeps Devanagari words whole (vowel signs are letters); a virama splits as on Convex", () => {
    expect(tokenize("राम-बहादुर, सीता")).toEqual(["राम", "बहादुर", "सीता"]);
    expect(tokenize("प्लम्बर")).toEqual(["प", "लम", "बर"]);
  });

  it("drops tokens of 32 UTF-8 bytes or more", () => {
    expect(tokenize(`${"a".repeat(31)} ${"b".repeat(32)} ok`)).toEqual(["a".repeat(31), "ok"]);
  });
});

describe("withSearchIndex", () => {
  it("finds words next to punctuation", async () => {
    expect(await search("kathmandu")).toContain("plumber—Kathmandu, (24/7)");
    expect(await search("24")).toEqual(["plumber—Kathmandu, (24/7)"]);
  });

  it("prefix-matches the last term only", async () => {
    expect(await search("electric kettle")).toEqual(["electric kettle repair"]);
    expect(await search("kettle electric")).toEqual([
      "electric kettle repair",
      "electrician Lalitpur",
    ]);
    expect(await search("electr")).toEqual(
      expect.arrayContaining(["electric kettle repair", "electrician Lalitpur"]),
    );
  });

  it("orders by BM25 relevance, so take(n) returns the most relevant", async () => {
    expect(await search("cleaning")).toEqual([
      "cleaning cleaning",
      "cleaning",
      "home cleaning and painting services in kathmandu valley",
    ]);
    expect(await search("cleaning", { take: 1 })).toEqual(["cleaning cleaning"]);
    // An exact match outweighs a prefix match of the same term.
    expect(await search("home clean")).toEqual([
      "home cleaning and painting services in kathmandu valley",
      "cleaning cleaning",
      "cleaning",
    ]);
  });

  it("finds Devanagari names by word and by prefix", async () => {
    expect(await search("राम")).toEqual(["राम बहादुर प्लम्बर"]);
    expect(await search("बहा")).toEqual(["राम बहादुर प्लम्बर"]);
    expect(await search("प्लम्बर")).toEqual(["राम बहादुर प्लम्बर"]);
    expect(await search("सीता")).toEqual(["सीता इलेक्ट्रिसियन"]);
  });

  it("q.eq filters on filterFields; a field outside them is refused", async () => {
    expect(await search("kathmandu", { category: "repair" })).toEqual([
      "plumber—Kathmandu, (24/7)",
    ]);
    expect(await search("cleaning", { category: "garden" })).toEqual([]);
    await expect(http.query(anyApi.articles.searchOnWrongField, {})).rejects.toThrow(
      /contains an equality filter on "title" but that field isn't indexed for filtering in `filterFields`/,
    );
  });

  it("a query with no word matches nothing", async () => {
    expect(await search("—, !")).toEqual([]);
  });

  it("paginates in relevance order, without a split cursor", async () => {
    type Page = { page: string[]; isDone: boolean; continueCursor: string; splitCursor: unknown };
    const first = (await http.query(anyApi.articles.searchPage, {
      text: "cleaning",
      paginationOpts: { numItems: 2, cursor: null },
    })) as Page;
    expect(first.page).toEqual(["cleaning cleaning", "cleaning"]);
    expect(first.splitCursor).toBeNull();
    const second = (await http.query(anyApi.articles.searchPage, {
      text: "cleaning",
      paginationOpts: { numItems: 2, cursor: first.continueCursor },
    })) as Page;
    expect(second).toMatchObject({
      page: ["home cleaning and painting services in kathmandu valley"],
      isDone: true,
    });
  });
});
