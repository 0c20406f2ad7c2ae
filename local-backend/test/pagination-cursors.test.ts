// Cursors are the backend's own (signed, as Convex encrypts its cursors), and a page with an end cursor,
// which ignores numItems as on Convex, still stops at the transaction's read limits and the array limit.
import { describe, expect, it } from "vitest";
import { readPage, useCursorSecret, type PageSource } from "../engine/pagination.ts";

const rows = Array.from({ length: 10_000 }, (_, i) => ({ doc: { n: i }, key: [i] }));
const source: PageSource<{ n: number }> = {
  rowsAfter: (after) =>
    after === null ? rows : rows.filter((r) => r.key[0] > (after[0] as number)),
  order: "asc",
  matches: () => true,
  size: () => 100,
  splittable: true,
};
const request = (cursor: string | null, endCursor: string | null, pageSize: number) => ({
  fingerprint: "q1",
  cursor,
  endCursor,
  pageSize,
  maximumRowsRead: null,
  maximumBytesRead: null,
});
const payloadOf = (cursor: string) => cursor.slice(0, cursor.indexOf("."));
const forged = (position: unknown) =>
  Buffer.from(JSON.stringify(["q1", position])).toString("base64url");

describe("pagination cursors", () => {
  it("refuses a cursor the backend did not issue as InvalidCursor, with or without a signature", () => {
    const first = readPage(source, request(null, null, 2));
    expect(first.page).toHaveLength(2);
    const unsigned = payloadOf(first.continueCursor);
    for (const cursor of [unsigned, forged(null), `${forged(null)}.AAAAAAAAAAAAAAAAAAAAAA`]) {
      expect(() => readPage(source, request(null, cursor, 2))).toThrow(/InvalidCursor/);
      expect(() => readPage(source, request(cursor, null, 2))).toThrow(/InvalidCursor/);
    }
  });

  it("keeps accepting its own cursors after a backend adds its secret", () => {
    const before = readPage(source, request(null, null, 3));
    useCursorSecret("a data directory's storage secret");
    const next = readPage(source, request(before.continueCursor, null, 3));
    expect(next.page.map((d) => d.n)).toEqual([3, 4, 5]);
    const replay = readPage(source, request(null, next.continueCursor, 3));
    expect(replay.page).toHaveLength(6);
  });

  it("stops a page with an end cursor at Convex's array limit, SplitRequired, keeping the end", () => {
    const whole = readPage(source, request(null, null, 20_000));
    expect(whole.isDone).toBe(true);
    const lifted = readPage(source, request(null, whole.continueCursor, 1));
    expect(lifted.page).toHaveLength(8192);
    expect(lifted.pageStatus).toBe("SplitRequired");
    expect(lifted.continueCursor).toBe(whole.continueCursor);
    expect(lifted.splitCursor).not.toBeNull();
  });
});
