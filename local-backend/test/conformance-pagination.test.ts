// @vitest-environment jsdom
// Paginated queries as Convex serves them: the unmodified `usePaginatedQuery` (convex/react) with three
// pages loaded keeps every item exactly once, in order, while documents are inserted into and deleted
// from any page — each page's end cursor is fixed by its first run and kept in the query journal
// (crates/isolate query_page, `prev_journal.end_cursor`); a page that grows past twice its size is
// split by the client at the server's splitCursor; a cursor of another query is `InvalidCursor`.
// The backend runs in a child process: this file's React renders need jsdom's globals.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createElement, type ReactNode } from "react";
import { act, renderHook, waitFor } from "@testing-library/react";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { ConvexProvider, ConvexReactClient, usePaginatedQuery } from "convex/react";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

let child: ChildProcess;
let url: string;
let http: ConvexHttpClient;
const clients: ConvexReactClient[] = [];

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(here, "child-backend.ts"), tempDataDir()],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`backend exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  url = (JSON.parse(line) as { url: string }).url;
  http = new ConvexHttpClient(url, { logger: false });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  removeTempDataDirs();
});

interface Item {
  rank: number;
}
type Page = {
  page: Item[];
  isDone: boolean;
  continueCursor: string;
  splitCursor?: string | null;
  pageStatus?: string | null;
};

const insert = (list: string, ...ranks: number[]) =>
  http.mutation(anyApi.items.insert, { list, ranks });
const remove = (list: string, rank: number) => http.mutation(anyApi.items.remove, { list, rank });

function paginated(list: string, initialNumItems: number) {
  const client = new ConvexReactClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
  clients.push(client);
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(ConvexProvider, { client }, children);
  return renderHook(() => usePaginatedQuery(anyApi.items.page, { list }, { initialNumItems }), {
    wrapper,
  });
}

const ranks = (items: Item[]) => items.map((i) => i.rank);

describe("usePaginatedQuery with three pages loaded", () => {
  it("inserts and deletes in any page never drop or repeat an item", async () => {
    const list = "journal";
    await insert(list, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100);
    const { result } = paginated(list, 3);
    await waitFor(() => expect(ranks(result.current.results)).toEqual([10, 20, 30]));
    act(() => result.current.loadMore(3));
    await waitFor(() => expect(ranks(result.current.results)).toHaveLength(6));
    act(() => result.current.loadMore(3));
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]),
    );
    expect(result.current.status).toBe("CanLoadMore");

    // Into the first page: its last item (30) stays, and is not pushed into the next page twice.
    await insert(list, 15);
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 15, 20, 30, 40, 50, 60, 70, 80, 90]),
    );
    // Out of the first page: nothing from the second page moves up and repeats.
    await remove(list, 20);
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 15, 30, 40, 50, 60, 70, 80, 90]),
    );
    // A page's boundary items: the second page's first and the first page's last.
    await remove(list, 40);
    await remove(list, 30);
    await insert(list, 35, 65);
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 15, 35, 50, 60, 65, 70, 80, 90]),
    );
    // Past the last loaded page's end: not loaded until loadMore, then exactly once.
    await insert(list, 95);
    await remove(list, 100);
    await insert(list, 85);
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 15, 35, 50, 60, 65, 70, 80, 85, 90]),
    );
    act(() => result.current.loadMore(3));
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual([10, 15, 35, 50, 60, 65, 70, 80, 85, 90, 95]),
    );
    await waitFor(() => expect(result.current.status).toBe("Exhausted"));
  });

  it("a page that grows past twice its size is split at the server's splitCursor, losing nothing", async () => {
    const list = "split";
    await insert(list, 10, 20, 30, 40, 50, 60, 70, 80, 90);
    const { result } = paginated(list, 3);
    await waitFor(() => expect(result.current.results).toHaveLength(3));
    act(() => result.current.loadMore(3));
    await waitFor(() => expect(result.current.results).toHaveLength(6));
    act(() => result.current.loadMore(3));
    await waitFor(() => expect(result.current.results).toHaveLength(9));
    await insert(list, 21, 22, 23, 24, 25);
    const expected = [10, 20, 21, 22, 23, 24, 25, 30, 40, 50, 60, 70, 80, 90];
    await waitFor(() => expect(ranks(result.current.results)).toEqual(expected));
    // The split happened: the first page (8 items > 2 × 3) became two subscriptions.
    const first = (await http.query(anyApi.items.page, {
      list,
      paginationOpts: { numItems: 3, cursor: null },
    })) as Page;
    expect(first.splitCursor).toEqual(expect.any(String));
    await remove(list, 22);
    await waitFor(() =>
      expect(ranks(result.current.results)).toEqual(expected.filter((r) => r !== 22)),
    );
  });
});

describe("the page protocol", () => {
  const page = (list: string, paginationOpts: Record<string, unknown>, minRank?: number) =>
    http.query(anyApi.items.page, { list, paginationOpts, minRank }) as Promise<Page>;

  it("an end cursor returns the whole range (cursor, endCursor] whatever numItems, and keeps it as continueCursor", async () => {
    const list = "range";
    await insert(list, 1, 2, 3, 4, 5, 6);
    const first = await page(list, { numItems: 2, cursor: null });
    expect(ranks(first.page)).toEqual([1, 2]);
    expect(first.isDone).toBe(false);
    await insert(list, 1.5, 1.7);
    const again = await page(list, { numItems: 2, cursor: null, endCursor: first.continueCursor });
    expect(ranks(again.page)).toEqual([1, 1.5, 1.7, 2]);
    expect(again.continueCursor).toBe(first.continueCursor);
    const rest = await page(list, { numItems: 10, cursor: first.continueCursor });
    expect(ranks(rest.page)).toEqual([3, 4, 5, 6]);
    expect(rest.isDone).toBe(true);
  });

  it("a page of exactly numItems is not done; the next one is empty and done", async () => {
    const list = "exact";
    await insert(list, 1, 2);
    const first = await page(list, { numItems: 2, cursor: null });
    expect(first.isDone).toBe(false);
    const next = await page(list, { numItems: 2, cursor: first.continueCursor });
    expect(next).toMatchObject({ page: [], isDone: true });
  });

  it("splitCursor is the middle of the rows read; maximumRowsRead ends the page with SplitRequired", async () => {
    const list = "limits";
    await insert(list, 1, 2, 3, 4, 5, 6, 7, 8);
    const whole = await page(list, { numItems: 8, cursor: null });
    const lower = await page(list, { numItems: 8, cursor: null, endCursor: whole.splitCursor });
    expect(ranks(lower.page)).toEqual([1, 2, 3, 4, 5]);
    // Only ranks ≥ 7 match: after 3 rows read the page stops, short, with a cursor to go on from.
    const limited = await page(list, { numItems: 2, cursor: null, maximumRowsRead: 3 }, 7);
    expect(limited).toMatchObject({ page: [], isDone: false, pageStatus: "SplitRequired" });
    const after = await page(list, { numItems: 2, cursor: limited.continueCursor }, 7);
    expect(ranks(after.page)).toEqual([7, 8]);
  });

  it("a cursor from another query is InvalidCursor", async () => {
    const other = (await http.query(anyApi.items.other, {
      paginationOpts: { numItems: 1, cursor: null },
    })) as Page;
    await expect(page("range", { numItems: 1, cursor: other.continueCursor })).rejects.toThrow(
      /InvalidCursor/,
    );
  });
});
