/**
 * "Nearest available now" against a started backend: two professionals offered the same request
 * accept at the same moment, over their own connections, and exactly one booking is made — the
 * other is told the job was taken. Convex runs each mutation serializably; this holds it to that.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PASSWORD, registrationForm, startAppBackend, type AppBackend } from "./lib/app-backend";

const accept = makeFunctionReference<"mutation", { offerId: string }, string>("dispatch:accept");
const ROUNDS = 8;

type Db = {
  insert(table: string, doc: Record<string, unknown>): Promise<string>;
  patch(id: string, fields: Record<string, unknown>): Promise<void>;
  query(table: string): { collect(): Promise<Record<string, unknown>[]> };
};
let app: AppBackend;
const run = <T>(fn: (db: Db) => Promise<T>) =>
  app.backend.engine.t.run((ctx: unknown) => fn((ctx as { db: Db }).db)) as Promise<T>;

async function secondProfessional(site: string) {
  const email = "q.professional@example.np";
  const reg = await fetch(`${site}/api/technicians/register`, {
    method: "POST",
    body: registrationForm(email, true),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status}`);
  const login = (await (
    await fetch(`${site}/api/technicians/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
  ).json()) as { token: string; user: { _id: string } };
  return { token: login.token, userId: login.user._id };
}

beforeAll(async () => {
  app = await startAppBackend();
}, 60_000);
afterAll(async () => {
  await app?.close();
});

test("two professionals accepting one request at once make exactly one booking", async () => {
  const p = app.accounts.professional;
  const q = await secondProfessional(app.site);
  const pros = await run(async (db) => {
    const rows = await db.query("professionals").collect();
    for (const row of rows)
      await db.patch(row._id as string, { verification: { status: "verified" }, available: true });
    return rows;
  });
  const proOf = (userId: string) => pros.find((r) => r.userId === userId)!._id as string;
  const service = (await run((db) => db.query("services").collect())).find(
    (s) => s.category === "electrical",
  )!;
  const clientOf = (token: string) => {
    const client = new ConvexHttpClient(app.backend.url, { logger: false });
    client.setAuth(token);
    return client;
  };
  const racers = [
    { client: clientOf(p.token), userId: p.userId },
    { client: clientOf(q.token), userId: q.userId },
  ];

  for (let round = 0; round < ROUNDS; round++) {
    const offers = await run(async (db) => {
      const requestId = await db.insert("dispatchRequests", {
        customerId: app.accounts.customer.userId,
        specialty: "electrician",
        city: "kathmandu",
        services: [{ id: service._id, name: service.name, category: "electrical", price: 500 }],
        price: 500,
        visitChargeNrs: 0,
        address: `Ward ${round + 1}, Baneshwor`,
        pin: { lat: 27.69, lng: 85.33 },
        status: "searching",
        deadline: Date.now() + 600_000,
        updatedAt: Date.now(),
      });
      const ids = [];
      for (const r of racers)
        ids.push(
          await db.insert("dispatchOffers", {
            requestId,
            professionalId: proOf(r.userId),
            professionalUserId: r.userId,
            distanceMetres: 900,
            status: "offered",
            expiresAt: Date.now() + 90_000,
          }),
        );
      return ids;
    });
    const answers = await Promise.allSettled(
      racers.map((r, i) => r.client.mutation(accept, { offerId: offers[i] })),
    );
    const won = answers.filter((a) => a.status === "fulfilled");
    const lost = answers.filter((a) => a.status === "rejected");
    expect(won).toHaveLength(1);
    expect(String((lost[0] as PromiseRejectedResult).reason)).toMatch(/OFFER_TAKEN|took this job/);
  }
  const bookings = await run((db) => db.query("bookings").collect());
  expect(bookings).toHaveLength(ROUNDS);
  expect(new Set(bookings.map((b) => b.address)).size).toBe(ROUNDS);
}, 120_000);
