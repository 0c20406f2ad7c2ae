/**
 * The map's denormalised `mapMarkers` rows stay what `professionals` and `users` say, whichever
 * writer changes them: each test changes a source through its public (or internal) function and
 * reads the marker row and locations:onMap back.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { upsertCatalog } from "./catalog";
import { refreshMarker } from "./mapMarkers";
import { LIVE_WINDOW_MS } from "./locations";
import {
  deleteAccountOf,
  insertAdmin,
  insertProfessional,
  newTest,
  storeUpload,
  type TestConvex,
} from "../test.setup";

const HERE = { longitude: 85.32412, latitude: 27.71723 };

async function setup() {
  vi.useFakeTimers();
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const admin = await insertAdmin(t);
  await pro.as.mutation(api.locations.update, HERE);
  return { t, pro, admin };
}

const markerRows = (t: TestConvex) => t.run((ctx) => ctx.db.query("mapMarkers").collect());
const onMap = (t: TestConvex) => t.query(api.locations.onMap, {});

afterEach(() => {
  vi.useRealTimers();
});

describe("mapMarkers", () => {
  test("the first position write creates the row from the profile; later ones leave it alone", async () => {
    const { t, pro } = await setup();
    const [row] = await markerRows(t);
    expect(row).toMatchObject({
      professionalId: pro.professionalId,
      city: "kathmandu",
      specialty: "electrician",
      name: "Ram Thapa",
      listed: true,
    });
    vi.advanceTimersByTime(5000);
    await pro.as.mutation(api.locations.update, { longitude: 85.4, latitude: 27.8 });
    expect(await markerRows(t)).toEqual([row]);
  });

  test("a position written before markers existed gets its row on the next write", async () => {
    const { t, pro } = await setup();
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("mapMarkers").collect())
        await ctx.db.delete("mapMarkers", row._id);
    });
    expect(await onMap(t)).toEqual([]);
    vi.advanceTimersByTime(5000);
    await pro.as.mutation(api.locations.update, HERE);
    expect((await onMap(t)).map((m) => m.professionalId)).toEqual([pro.professionalId]);
  });

  test("users:updateProfile renames the marker", async () => {
    const { t, pro } = await setup();
    await pro.as.mutation(api.users.updateProfile, {
      name: "Ram Bahadur Thapa",
      phone: "9800000002",
      address: "Ward 10, Nepalgunj",
      zipCode: "21900",
    });
    expect((await onMap(t))[0].name).toBe("Ram Bahadur Thapa");
  });

  test("professionals:setAvailability and admin:setAvailability list and unlist", async () => {
    const { t, pro, admin } = await setup();
    await pro.as.mutation(api.professionals.setAvailability, { available: false });
    expect((await markerRows(t))[0].listed).toBe(false);
    expect(await onMap(t)).toEqual([]);
    expect(await t.query(api.locations.marker, { professionalId: pro.professionalId })).toBeNull();
    await admin.as.mutation(api.admin.setAvailability, {
      professionalId: pro.professionalId,
      available: true,
    });
    expect((await onMap(t)).map((m) => m.professionalId)).toEqual([pro.professionalId]);
    await admin.as.mutation(api.admin.setAvailability, {
      professionalId: pro.professionalId,
      available: false,
    });
    expect(await onMap(t)).toEqual([]);
  });

  test("admin:verify lists a verified professional and unlists a rejected one", async () => {
    const { t, admin } = await setup();
    const pending = await insertProfessional(t, { name: "Hari Rai", verified: false });
    await pending.as.mutation(api.locations.update, HERE);
    const listed = async (id: Id<"professionals">) =>
      (await markerRows(t)).find((r) => r.professionalId === id)?.listed;
    expect(await listed(pending.professionalId)).toBe(false);
    await admin.as.mutation(api.admin.verify, {
      professionalId: pending.professionalId,
      decision: "verified",
    });
    expect(await listed(pending.professionalId)).toBe(true);
    await admin.as.mutation(api.admin.verify, {
      professionalId: pending.professionalId,
      decision: "rejected",
      note: "Blurry certificate",
    });
    expect(await listed(pending.professionalId)).toBe(false);
  });

  test("resubmitted documents keep a waiting professional off the map", async () => {
    const { t } = await setup();
    const pending = await insertProfessional(t, { name: "Hari Rai", verified: false });
    await t.run((ctx) =>
      ctx.db.patch("professionals", pending.professionalId, {
        verification: { status: "rejected", at: 1, note: "Blurry" },
      }),
    );
    await pending.as.mutation(api.locations.update, HERE);
    await pending.as.mutation(api.professionals.resubmitDocuments, {
      citizenshipBack: await storeUpload(t, { userId: pending.userId }),
    });
    const row = (await markerRows(t)).find((r) => r.professionalId === pending.professionalId);
    expect(row?.listed).toBe(false);
  });

  test("a suspended account is unlisted once its writer refreshes the marker", async () => {
    const { t, pro, admin } = await setup();
    await t.run(async (ctx) => {
      await ctx.db.patch("users", pro.userId, {
        suspended: { at: 1, by: admin.userId, reason: "Fraud" },
      });
      await refreshMarker(ctx, pro.professionalId);
    });
    expect(await onMap(t)).toEqual([]);
  });

  test("the position row carries the marker's name and listing: locations:current follows their writers", async () => {
    const { t, pro } = await setup();
    const current = async () =>
      (await t.query(api.locations.current, {})).map((m) => [m.professionalId, m.name]);
    expect(await current()).toEqual([[pro.professionalId, "Ram Thapa"]]);
    await pro.as.mutation(api.users.updateProfile, {
      name: "Ram Bahadur Thapa",
      phone: "9800000002",
      address: "Ward 10, Nepalgunj",
      zipCode: "21900",
    });
    expect(await current()).toEqual([[pro.professionalId, "Ram Bahadur Thapa"]]);
    await pro.as.mutation(api.professionals.setAvailability, { available: false });
    expect(await current()).toEqual([]);
    await pro.as.mutation(api.professionals.setAvailability, { available: true });
    expect(await current()).toEqual([[pro.professionalId, "Ram Bahadur Thapa"]]);
    // a row written before the copy: off the map until the next position write
    await t.run(async (ctx) => {
      const [live] = await ctx.db.query("liveLocations").collect();
      await ctx.db.patch("liveLocations", live._id, { name: undefined, listed: undefined });
    });
    expect(await current()).toEqual([]);
    vi.advanceTimersByTime(5000);
    await pro.as.mutation(api.locations.update, HERE);
    expect(await current()).toEqual([[pro.professionalId, "Ram Bahadur Thapa"]]);
  });

  test("the sweep and account deletion remove the row with the position", async () => {
    const { t } = await setup();
    const other = await insertProfessional(t, { name: "Hari Rai" });
    vi.advanceTimersByTime(LIVE_WINDOW_MS - 1000);
    await other.as.mutation(api.locations.update, HERE);
    vi.advanceTimersByTime(2000);
    await t.mutation(internal.locations.sweepStale, {});
    expect((await markerRows(t)).map((r) => r.professionalId)).toEqual([other.professionalId]);
    await deleteAccountOf(t, other);
    expect(await markerRows(t)).toEqual([]);
  });
});
