import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { errorCode, everyKindOfCaller, insertAdmin, insertCustomer, insertProfessional, newTest } from "./test.setup";

describe("professionals:search", () => {
  test("verified and available first, then rating, then distance; rejected left out; aliases accepted", async () => {
    const t = newTest();
    const near = { lat: 27.7, lng: 85.3 };
    const unverified = await insertProfessional(t, { name: "Unverified", specialty: "mason", verified: false });
    const busy = await insertProfessional(t, { name: "Busy", specialty: "mason", available: false });
    const good = await insertProfessional(t, { name: "Good", specialty: "mason" });
    const best = await insertProfessional(t, { name: "Best", specialty: "mason" });
    const far = await insertProfessional(t, { name: "Far", specialty: "mason" });
    const rejected = await insertProfessional(t, { name: "Rejected", specialty: "mason", verified: false });
    await insertProfessional(t, { name: "Other city", specialty: "mason", city: "pokhara" });
    await t.run(async (ctx) => {
      await ctx.db.patch("professionals", best.professionalId, { rating: { sum: 14, count: 3 } });
      await ctx.db.patch("professionals", rejected.professionalId, { verification: { status: "rejected", note: "blurry" } });
      for (const [id, lat] of [[good.professionalId, 27.71], [far.professionalId, 27.9]] as const) {
        await ctx.db.insert("liveLocations", { professionalId: id, city: "kathmandu", specialty: "mason", lat, lng: 85.3, updatedAt: 1 });
      }
    });
    const results = await t.query(api.professionals.search, { specialty: "Manson", city: "Kathmandu", near });
    expect(results).toHaveLength(5); // not the rejected one, not the other city
    expect(results.slice(0, 3).map((r) => r.name)).toEqual(["Best", "Good", "Far"]);
    expect(new Set(results.slice(3).map((r) => r.name))).toEqual(new Set(["Unverified", "Busy"]));
    expect(results[0]).toMatchObject({ specialty: "mason", specialtyName: "Mason", cityName: "Kathmandu", verified: true, rating: { average: 4.7, count: 3 } });
    expect(results[1].distanceKm).toBeLessThan(results[2].distanceKm!);
    expect(results.find((r) => r._id === unverified.professionalId)?.verified).toBe(false);
    expect(results.find((r) => r._id === busy.professionalId)?.available).toBe(false);
    expect(results[0]).not.toHaveProperty("email");
  });

  test("unknown specialty or city gives an empty list; anyone may search", async () => {
    const t = newTest();
    await insertProfessional(t);
    const callers = await everyKindOfCaller(t);
    expect(await t.query(api.professionals.search, { specialty: "astronaut", city: "kathmandu" })).toEqual([]);
    for (const as of Object.values(callers)) {
      expect((await as.query(api.professionals.search, { specialty: "electrician", city: "kathmandu" })).length).toBe(2);
    }
  });
});

describe("professionals:get", () => {
  test("public profile with locations and reviews, never documents or contact details", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const profile = await t.query(api.professionals.get, { professionalId: pro.professionalId });
    expect(profile).toMatchObject({ name: "Ram Thapa", state: "Bagmati", reviews: { average: 0, count: 0, recent: [] } });
    expect(profile?.locations).toHaveLength(1);
    expect(profile).not.toHaveProperty("documents");
    expect(profile).not.toHaveProperty("email");
  });

  test("a rejected profile is shown only to its owner and admins", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    await t.run((ctx) => ctx.db.patch("professionals", pro.professionalId, { verification: { status: "rejected" } }));
    const { visitor, customer, professional, admin } = await everyKindOfCaller(t);
    for (const as of [visitor, customer, professional]) {
      expect(await as.query(api.professionals.get, { professionalId: pro.professionalId })).toBeNull();
    }
    for (const as of [pro.as, admin]) {
      expect(await as.query(api.professionals.get, { professionalId: pro.professionalId })).not.toBeNull();
    }
  });
});

describe("professionals:me", () => {
  test("the professional sees their dashboard profile with document URLs", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const me = await pro.as.query(api.professionals.me, {});
    expect(me).toMatchObject({ _id: pro.professionalId, verification: { status: "unverified" }, available: true, state: "Bagmati" });
    expect(me?.documents.citizenshipFront).toMatch(/^https?:/);
  });

  test("visitors, customers and admins are refused", async () => {
    const t = newTest();
    const { visitor, customer, admin } = await everyKindOfCaller(t);
    expect(await errorCode(visitor.query(api.professionals.me, {}))).toBe("UNAUTHENTICATED");
    expect(await errorCode(customer.query(api.professionals.me, {}))).toBe("FORBIDDEN");
    expect(await errorCode(admin.query(api.professionals.me, {}))).toBe("FORBIDDEN");
  });
});

describe("professionals:setAvailability", () => {
  test("the professional toggles their own availability, nobody else's", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const other = await insertProfessional(t, { name: "Other" });
    await pro.as.mutation(api.professionals.setAvailability, { available: false });
    expect((await pro.as.query(api.professionals.me, {}))?.available).toBe(false);
    expect(await other.as.query(api.professionals.me, {})).toMatchObject({ name: "Other", available: true });
  });

  test("visitors, customers and admins are refused", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const admin = await insertAdmin(t);
    expect(await errorCode(t.mutation(api.professionals.setAvailability, { available: false }))).toBe("UNAUTHENTICATED");
    expect(await errorCode(customer.as.mutation(api.professionals.setAvailability, { available: false }))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.mutation(api.professionals.setAvailability, { available: false }))).toBe("FORBIDDEN");
  });
});
