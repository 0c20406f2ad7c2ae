/**
 * Hand-made cursors: a signed-in customer reads one booking of their list (`bookings:forCustomer`,
 * numItems 1), then makes cursors from what the real one shows: the end of the range (the whole list
 * in one page, past numItems and the read limits), a made-up start, the real cursor's text with its
 * signature cut off or moved onto a forged position. Each goes as `endCursor` and as `cursor` over
 * `POST /api/query`, and as a subscription's query journal over the sync socket. None may answer more
 * than the one booking asked for: the backend refuses them as InvalidCursor.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { DEMO_PASSWORD, signIn, type HostileBackend } from "./hostile-backend.ts";
import { closed, connectFrame, onServerMessages, openSync } from "./hostile-sync.ts";

type Page = { page: unknown[]; isDone: boolean; continueCursor: string };
const forCustomer = makeFunctionReference<"query", { paginationOpts: unknown }, Page>(
  "bookings:forCustomer",
);

export type CursorReport = { tried: number; lifted: string[]; bookings: number };

/** Cursors made by hand from a real one (`<base64url JSON [fingerprint, position]>` and maybe `.signature`). */
function forgeries(real: string): Record<string, string> {
  const [payload, signature = ""] = real.split(".");
  const [fingerprint] = JSON.parse(Buffer.from(payload, "base64url").toString()) as [string];
  const encode = (position: unknown) =>
    Buffer.from(JSON.stringify([fingerprint, position])).toString("base64url");
  return {
    "end of range": encode(null),
    "end of range + the real signature": `${encode(null)}.${signature}`,
    "real position, unsigned": payload,
    "made-up start": encode([[""], [0], [""]]),
  };
}

export async function runCursorForgery(backend: HostileBackend): Promise<CursorReport> {
  const { token } = await signIn(backend.url, "customer", "customer@demo.np", DEMO_PASSWORD);
  const http = new ConvexHttpClient(backend.url, { logger: false });
  http.setAuth(token);
  const all = await http.query(forCustomer, { paginationOpts: { numItems: 1000, cursor: null } });
  const first = await http.query(forCustomer, { paginationOpts: { numItems: 1, cursor: null } });
  if (all.page.length < 2 || first.isDone)
    throw new Error(`the demo customer needs 2+ bookings, has ${all.page.length}`);
  const report: CursorReport = { tried: 0, lifted: [], bookings: all.page.length };
  for (const [name, forged] of Object.entries(forgeries(first.continueCursor))) {
    for (const slot of ["endCursor", "cursor"] as const) {
      report.tried++;
      const opts = { numItems: 1, cursor: null, [slot]: forged };
      try {
        const page = await http.query(forCustomer, { paginationOpts: opts });
        if (page.page.length > 1)
          report.lifted.push(`${name} as ${slot}: ${page.page.length} bookings in one page`);
      } catch (error) {
        if (!/InvalidCursor/.test(String(error)))
          report.lifted.push(`${name} as ${slot}: ${String(error).slice(0, 200)}`);
      }
    }
    report.tried++;
    const rows = await journalPage(backend.url, token, forged);
    if (rows > 1) report.lifted.push(`${name} as a journal: ${rows} bookings in one page`);
  }
  return report;
}

/** Subscribes to the first page (numItems 1) with `journal`; the rows of its first answer (0 if failed). */
async function journalPage(url: string, token: string, journal: string): Promise<number> {
  const ws = await openSync(url);
  const answer = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer to the journal query")), 15_000);
    onServerMessages(ws, (message) => {
      const m = message as { type: string; modifications?: { type: string; value?: Page }[] };
      if (m.type === "FatalError") {
        clearTimeout(timer);
        resolve(0);
      }
      const update = m.modifications?.find(
        (x) => x.type === "QueryUpdated" || x.type === "QueryFailed",
      );
      if (m.type !== "Transition" || update === undefined) return;
      clearTimeout(timer);
      resolve(update.type === "QueryUpdated" ? (update.value?.page.length ?? 0) : 0);
    });
  });
  ws.send(connectFrame());
  ws.send(
    JSON.stringify({ type: "Authenticate", baseVersion: 0, tokenType: "User", value: token }),
  );
  ws.send(
    JSON.stringify({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [
        {
          type: "Add",
          queryId: 0,
          udfPath: "bookings:forCustomer",
          args: [{ paginationOpts: { numItems: 1, cursor: null } }],
          journal,
        },
      ],
    }),
  );
  try {
    return await answer;
  } finally {
    ws.close();
    await closed(ws);
  }
}

export const summarizeCursor = (r: CursorReport) =>
  `${r.tried} hand-made cursors (the customer has ${r.bookings} bookings, numItems 1): ${r.lifted.length} lifted the page`;
