import { settingsRules } from "./rules/settings";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { DEMO_CUSTOMERS, DEMO_PASSWORD, DEMO_PROFESSIONALS } from "./model/demoData";
import { newTest, useAuthEnv, useCheapPasswordHashes, withSession } from "./test.setup";
import { CITIES, SPECIALTIES } from "./validators";

beforeAll(useAuthEnv);
// the demo's accounts are password accounts: PBKDF2 at a fraction of its iterations (test.setup.ts)
useCheapPasswordHashes();

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("seed:init", () => {
  test("catalogue, settings and the first admin (its setup link returned once); idempotent", async () => {
    const t = newTest();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const first = await t.action(internal.seed.init, {});
    expect(first).toMatchObject({ adminCreated: "admin", demoCreated: false });
    expect(first.adminSetupToken).toMatch(/^[0-9a-f]{64}$/);
    expect(first.catalogRowsInserted).toBeGreaterThan(60);
    expect(await t.query(api.catalog.categories, {})).toHaveLength(13);
    const keys = await t.run(async (ctx) =>
      (await ctx.db.query("settings").collect()).map((s) => s.key).sort(),
    );
    // every setting an admin may change has its default stored
    expect(keys).toEqual(Object.keys(settingsRules.shape).sort());

    log.mockClear();
    expect(await t.action(internal.seed.init, { demo: false })).toEqual({
      catalogRowsInserted: 0,
      adminCreated: null,
      adminSetupToken: null,
      demoCreated: false,
    });
    expect(log).not.toHaveBeenCalled();
    const admins = await t.run((ctx) =>
      ctx.db
        .query("users")
        .withIndex("by_role", (q) => q.eq("role", "admin"))
        .collect(),
    );
    expect(admins).toHaveLength(1);
  });

  test("demo: verified professionals (verified phones) in every specialty and city, on the map, bookings in many states, working logins", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const t = newTest();
    expect((await t.action(internal.seed.init, { demo: true })).demoCreated).toBe(true);

    const { users, pros, bookings, reviews, positions } = await t.run(async (ctx) => ({
      users: await ctx.db.query("users").collect(),
      pros: await ctx.db.query("professionals").collect(),
      bookings: await ctx.db.query("bookings").collect(),
      reviews: await ctx.db.query("reviews").collect(),
      positions: await ctx.db.query("liveLocations").collect(),
    }));
    expect(users.filter((u) => u.role === "customer")).toHaveLength(DEMO_CUSTOMERS.length);
    expect(pros).toHaveLength(DEMO_PROFESSIONALS.length);
    expect(pros.every((p) => p.verification.status === "verified" && p.available)).toBe(true);
    // a verified professional's phone is verified; the demo customers' too (they may sign in by SMS)
    expect(
      users.filter((u) => u.role !== "admin").every((u) => u.phoneVerificationTime !== undefined),
    ).toBe(true);
    expect(new Set(pros.map((p) => p.specialty))).toEqual(new Set(SPECIALTIES.map((s) => s.slug)));
    for (const c of CITIES)
      expect(pros.filter((p) => p.city === c.slug).length).toBeGreaterThanOrEqual(3);
    expect(positions).toHaveLength(pros.length);
    expect(new Set(bookings.map((b) => b.status))).toEqual(
      new Set([
        "requested",
        "accepted",
        "en_route",
        "in_progress",
        "completed",
        "reviewed",
        "cancelled",
        "rejected",
      ]),
    );
    expect(reviews.length).toBeGreaterThanOrEqual(8);
    const rated = pros.find((p) => p.rating.count === 2)!;
    expect(rated.rating.sum).toBe(9);

    // The documented logins are real password accounts.
    const signIn = (provider: string, email: string) =>
      t.action(api.auth.signIn, {
        provider,
        params: { flow: "signIn", email, password: DEMO_PASSWORD },
      });
    expect((await signIn("customer", "customer@demo.np")).tokens?.token).toBeTypeOf("string");
    expect((await signIn("professional", "professional@demo.np")).tokens?.token).toBeTypeOf(
      "string",
    );

    // Photos and documents are stored images.
    const photo = users.find((u) => u.email === "customer@demo.np")!.photo!;
    const head = await t.run(async (ctx) => [
      ...new Uint8Array(await (await ctx.storage.get(photo))!.arrayBuffer()).slice(0, 4),
    ]);
    expect(head).toEqual([0x89, 0x50, 0x4e, 0x47]);

    // A second demo run adds nothing.
    expect((await t.action(internal.seed.init, { demo: true })).demoCreated).toBe(false);
    expect(await t.run(async (ctx) => (await ctx.db.query("bookings").collect()).length)).toBe(
      bookings.length,
    );
  }, 180_000);

  test("demo professionals stay on the map past the live window", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const t = newTest();
    await t.action(internal.seed.init, { demo: true });
    vi.useFakeTimers();
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    await t.mutation(internal.locations.sweepStale, {});
    expect(await t.query(api.locations.current, {})).toEqual([]);
    await t.mutation(internal.seed.refreshDemoPositions, {});
    expect(await t.query(api.locations.current, {})).toHaveLength(DEMO_PROFESSIONALS.length);
    expect(await t.query(api.locations.current, { city: "kathmandu" })).toHaveLength(3);
  }, 180_000);

  test("demo professionals are online wherever the map shows them, and one who signs out stays off it", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const t = newTest();
    await t.action(internal.seed.init, { demo: true });
    const online = () =>
      t.run(async (ctx) =>
        (await ctx.db.query("presence").collect()).filter((p) => p.online).map((p) => p.userId),
      );
    const onMap = await t.query(api.locations.current, {});
    expect(await online()).toHaveLength(onMap.length);

    const first = onMap[0];
    const userId = await t.run(
      async (ctx) => (await ctx.db.get("professionals", first.professionalId))!.userId,
    );
    await (await withSession(t, userId)).as.mutation(api.presence.leave, {});
    const gone = (rows: { professionalId: string }[]) =>
      rows.every((r) => r.professionalId !== first.professionalId);
    expect(gone(await t.query(api.locations.current, {}))).toBe(true);

    vi.useFakeTimers();
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    await t.mutation(internal.seed.refreshDemoPositions, {});
    expect(gone(await t.query(api.locations.current, {}))).toBe(true);
    expect(await online()).not.toContain(userId);
    expect(await online()).toHaveLength(onMap.length - 1);
  }, 180_000);
});
