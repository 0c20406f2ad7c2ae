import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { updateProfessional } from "./model/professionalUpdate";
import { searchRankOf } from "./rules/searchRank";
import {
  bookingRow,
  errorCode,
  errorMessage,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  PNG_BYTES,
  storeFile,
  storeUpload,
  type TestConvex,
  withSession,
} from "./test.setup";

afterEach(() => {
  vi.useRealTimers();
});

describe("professionals:search", () => {
  test("verified and available first, then rating, then distance; rejected left out; aliases accepted", async () => {
    const t = newTest();
    const near = { lat: 27.7, lng: 85.3 };
    const unverified = await insertProfessional(t, {
      name: "Unverified",
      specialty: "mason",
      verified: false,
    });
    const busy = await insertProfessional(t, {
      name: "Busy",
      specialty: "mason",
      available: false,
    });
    const good = await insertProfessional(t, { name: "Good", specialty: "mason" });
    const best = await insertProfessional(t, { name: "Best", specialty: "mason" });
    const far = await insertProfessional(t, { name: "Far", specialty: "mason" });
    const rejected = await insertProfessional(t, {
      name: "Rejected",
      specialty: "mason",
      verified: false,
    });
    await insertProfessional(t, { name: "Other city", specialty: "mason", city: "pokhara" });
    await t.run(async (ctx) => {
      const update = async (id: Id<"professionals">, fields: Partial<Doc<"professionals">>) =>
        updateProfessional(ctx, (await ctx.db.get("professionals", id))!, fields);
      await update(best.professionalId, { rating: { sum: 14, count: 3 } });
      await update(rejected.professionalId, {
        verification: { status: "rejected", note: "blurry" },
      });
      for (const [id, lat] of [
        [good.professionalId, 27.71],
        [far.professionalId, 27.9],
      ] as const) {
        await ctx.db.insert("liveLocations", {
          professionalId: id,
          city: "kathmandu",
          specialty: "mason",
          lat,
          lng: 85.3,
          updatedAt: 1,
        });
      }
    });
    const results = await t.query(api.professionals.search, {
      specialty: "Manson",
      city: "Kathmandu",
      near,
    });
    expect(results).toHaveLength(5); // not the rejected one, not the other city
    expect(results.slice(0, 3).map((r) => r.name)).toEqual(["Best", "Good", "Far"]);
    expect(new Set(results.slice(3).map((r) => r.name))).toEqual(new Set(["Unverified", "Busy"]));
    expect(results[0]).toMatchObject({
      specialty: "mason",
      specialtyName: "Mason",
      cityName: "Kathmandu",
      verified: true,
      rating: { average: 4.7, count: 3 },
    });
    expect(results[1].distanceKm).toBeLessThan(results[2].distanceKm!);
    expect(results.find((r) => r._id === unverified.professionalId)?.verified).toBe(false);
    expect(results.find((r) => r._id === busy.professionalId)?.available).toBe(false);
    expect(results[0]).not.toHaveProperty("email");
  });

  /** `count` verified, available, unrated carpenters in Pokhara, oldest first, in one transaction. */
  const carpenters = (t: TestConvex, count: number, from = 0) =>
    t.run(async (ctx) => {
      const storageId = await ctx.storage.store(new Blob([PNG_BYTES], { type: "image/png" }));
      const ids: Id<"professionals">[] = [];
      for (let i = from; i < from + count; i++) {
        const profile = {
          verification: { status: "verified" as const },
          rating: { sum: 0, count: 0 },
          available: true,
        };
        const userId = await ctx.db.insert("users", {
          name: `Carpenter ${i}`,
          role: "professional",
        });
        ids.push(
          await ctx.db.insert("professionals", {
            userId,
            specialty: "carpenter",
            city: "pokhara",
            state: "Gandaki",
            locations: [],
            documents: {
              citizenshipFront: storageId,
              citizenshipBack: storageId,
              trainingCertificate: storageId,
            },
            ...profile,
            searchRank: searchRankOf(profile),
          }),
        );
      }
      return ids;
    });
  const carpenterSearch = (t: TestConvex) =>
    t.query(api.professionals.search, { specialty: "carpenter", city: "pokhara" });

  test("returns the best 100 however many match: rating wins over age, equal ones oldest first", async () => {
    const t = newTest();
    const ids = await carpenters(t, 130);
    const rate = (id: Id<"professionals">, rating: Doc<"professionals">["rating"]) =>
      t.run(async (ctx) =>
        updateProfessional(ctx, (await ctx.db.get("professionals", id))!, { rating }),
      );
    await rate(ids[125], { sum: 9, count: 2 }); // 4.5
    await rate(ids[120], { sum: 18, count: 4 }); // 4.5, more ratings
    await rate(ids[110], { sum: 5, count: 1 }); // 5.0
    await t.run(async (ctx) => {
      const pro = (await ctx.db.get("professionals", ids[3]))!;
      await updateProfessional(ctx, pro, { available: false });
    });
    const results = await carpenterSearch(t);
    expect(results).toHaveLength(100);
    const expected = [
      ids[110],
      ids[120],
      ids[125],
      ...ids.filter((id, i) => ![3, 110, 120, 125].includes(i)),
    ].slice(0, 100);
    expect(results.map((r) => r._id)).toEqual(expected);
  });

  test("an update moves a profile in the ranking; a profile without a stored rank is ranked by its fields", async () => {
    const t = newTest();
    const ids = await carpenters(t, 3);
    const pro = await t.run(async (ctx) => (await ctx.db.get("professionals", ids[0]))!);
    const { as } = await withSession(t, pro.userId);
    await as.mutation(api.professionals.setAvailability, { available: false });
    expect((await carpenterSearch(t)).map((r) => r._id)).toEqual([ids[1], ids[2], ids[0]]);
    // a profile written before searchRank existed: rated, so first
    await t.run((ctx) =>
      ctx.db.patch("professionals", ids[2], {
        rating: { sum: 4, count: 1 },
        searchRank: undefined,
      }),
    );
    expect((await carpenterSearch(t)).map((r) => r._id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  test("unknown specialty or city gives an empty list; anyone may search", async () => {
    const t = newTest();
    await insertProfessional(t);
    const callers = await everyKindOfCaller(t);
    expect(
      await t.query(api.professionals.search, { specialty: "astronaut", city: "kathmandu" }),
    ).toEqual([]);
    for (const as of Object.values(callers)) {
      expect(
        (await as.query(api.professionals.search, { specialty: "electrician", city: "kathmandu" }))
          .length,
      ).toBe(2);
    }
  });
});

describe("professionals:get", () => {
  /** A booking between them, inserted in `status`. */
  const bookingIn = (
    t: TestConvex,
    customerId: Id<"users">,
    pro: { professionalId: Id<"professionals">; userId: Id<"users"> },
    status: "requested" | "accepted" | "completed",
  ) =>
    t.run((ctx) =>
      ctx.db.insert(
        "bookings",
        bookingRow(customerId, pro, status, {
          address: "Ward 2, Thamel",
          scheduledFor: Date.now(),
          price: 0,
        }),
      ),
    );

  test("everyone sees the public profile and the cities served, never documents or email", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const profile = await t.query(api.professionals.get, { professionalId: pro.professionalId });
    expect(profile).toMatchObject({
      name: "Ram Thapa",
      state: "Bagmati",
      serviceArea: [{ city: "kathmandu", cityName: "Kathmandu", state: "Bagmati" }],
      contact: null,
      reviews: { average: 0, count: 0, recent: [] },
    });
    const text = JSON.stringify(profile);
    for (const secret of ["Ward 10", "44600", "21900", "9800000002", "@example.np", pro.userId]) {
      expect(text).not.toContain(secret);
    }
    expect(profile).not.toHaveProperty("documents");
  });

  test("address, zip code and phone: admins, the professional, and the customer of an active booking only", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const { visitor, customer, professional, admin } = await everyKindOfCaller(t);
    const booked = await insertCustomer(t, "Booked Customer");
    const contactAs = async (as: Pick<typeof visitor, "query">) =>
      (await as.query(api.professionals.get, { professionalId: pro.professionalId }))?.contact;
    const exact = {
      phone: "9800000002",
      locations: [{ city: "kathmandu", state: "Bagmati", address: "Ward 10", zipCode: "44600" }],
    };

    for (const as of [visitor, customer, professional]) expect(await contactAs(as)).toBeNull();
    for (const as of [admin, pro.as]) expect(await contactAs(as)).toEqual(exact);

    const booking = await bookingIn(t, booked.userId, pro, "requested");
    expect(await contactAs(booked.as)).toBeNull(); // not yet accepted
    await t.run((ctx) => ctx.db.patch("bookings", booking, { status: "accepted" }));
    expect(await contactAs(booked.as)).toEqual(exact);
    await t.run((ctx) => ctx.db.patch("bookings", booking, { status: "completed" }));
    expect(await contactAs(booked.as)).toBeNull(); // the job is over
  });

  test("a rejected profile is, to anyone but its owner and admins, as missing as an unknown id", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const { visitor, customer, professional, admin } = await everyKindOfCaller(t);
    const gone = await insertProfessional(t, { name: "Gone" });
    await t.run((ctx) => ctx.db.delete("professionals", gone.professionalId));
    await t.run((ctx) =>
      ctx.db.patch("professionals", pro.professionalId, { verification: { status: "rejected" } }),
    );
    for (const as of [visitor, customer, professional]) {
      expect(
        await as.query(api.professionals.get, { professionalId: pro.professionalId }),
      ).toBeNull();
      expect(
        await as.query(api.professionals.get, { professionalId: gone.professionalId }),
      ).toBeNull();
    }
    for (const as of [pro.as, admin]) {
      expect(
        await as.query(api.professionals.get, { professionalId: pro.professionalId }),
      ).not.toBeNull();
    }
  });

  test("an unverified profile is shown, as search lists it, marked unverified and without contact details", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const { visitor, customer, professional } = await everyKindOfCaller(t);
    for (const as of [visitor, customer, professional]) {
      const profile = await as.query(api.professionals.get, { professionalId: pro.professionalId });
      expect(profile?.verified).toBe(false);
      expect(profile?.contact).toBeNull();
    }
  });
});

describe("professionals:me", () => {
  test("the professional sees their dashboard profile with document URLs", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const me = await pro.as.query(api.professionals.me, {});
    expect(me).toMatchObject({
      _id: pro.professionalId,
      verification: { status: "unverified" },
      available: true,
      state: "Bagmati",
    });
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
    expect(await other.as.query(api.professionals.me, {})).toMatchObject({
      name: "Other",
      available: true,
    });
  });

  test("visitors, customers and admins are refused", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const admin = await insertAdmin(t);
    expect(
      await errorCode(t.mutation(api.professionals.setAvailability, { available: false })),
    ).toBe("UNAUTHENTICATED");
    expect(
      await errorCode(
        customer.as.mutation(api.professionals.setAvailability, { available: false }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await errorCode(admin.as.mutation(api.professionals.setAvailability, { available: false })),
    ).toBe("FORBIDDEN");
  });
});

describe("professionals:resubmitDocuments", () => {
  const NOT_AN_IMAGE = new TextEncoder().encode("<html>not an image</html>");

  async function rejectedProfessional(t: TestConvex) {
    const pro = await insertProfessional(t, { verified: false });
    await t.run((ctx) =>
      ctx.db.patch("professionals", pro.professionalId, {
        verification: { status: "rejected", at: 1, note: "Blurry certificate" },
      }),
    );
    const documents = async () =>
      (await t.run((ctx) => ctx.db.get("professionals", pro.professionalId)))!.documents;
    return { ...pro, old: await documents(), documents };
  }

  const stored = (t: TestConvex, id: Id<"_storage">) =>
    t.run((ctx) => ctx.db.system.get("_storage", id));

  test("a rejected professional replaces documents: old files deleted, back to unverified without the note", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const front = await storeUpload(t, { userId: pro.userId });
    const certificate = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.professionals.resubmitDocuments, {
      citizenshipFront: front,
      trainingCertificate: certificate,
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    expect(await pro.documents()).toEqual({
      ...pro.old,
      citizenshipFront: front,
      trainingCertificate: certificate,
    });
    expect(await stored(t, pro.old.citizenshipFront)).toBeNull();
    expect(await stored(t, pro.old.trainingCertificate)).toBeNull();
    expect(await stored(t, pro.old.citizenshipBack)).not.toBeNull();
    const me = await pro.as.query(api.professionals.me, {});
    expect(me?.verification).toEqual({ status: "unverified", resubmittedAt: expect.any(Number) });
    expect(me?.documents.citizenshipFront).toMatch(/^https?:/);
    const claimed = await t.run((ctx) => ctx.db.query("uploads").collect());
    expect(claimed.map((u) => u.storageId).sort()).toEqual([front, certificate].sort());
  });

  test("the admin grid and dashboard count show the professional waiting for review again", async () => {
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const admin = await insertAdmin(t);
    const waiting = async () =>
      (
        await admin.as.query(api.admin.technicians, {
          verification: "unverified",
          paginationOpts: { numItems: 50, cursor: null },
        })
      ).page;
    expect(await waiting()).toEqual([]);
    expect((await admin.as.query(api.admin.stats, {})).pendingVerifications).toBe(0);
    await pro.as.mutation(api.professionals.resubmitDocuments, {
      citizenshipBack: await storeUpload(t, { userId: pro.userId }),
    });
    expect((await waiting()).map((r) => r._id)).toEqual([pro.professionalId]);
    expect((await waiting())[0].verification.resubmittedAt).toEqual(expect.any(Number));
    expect((await admin.as.query(api.admin.stats, {})).pendingVerifications).toBe(1);
  });

  test("a professional still waiting for review may replace a document and stays unverified", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const back = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipBack: back });
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("unverified");
    expect(
      (await t.run((ctx) => ctx.db.get("professionals", pro.professionalId)))?.documents
        .citizenshipBack,
    ).toBe(back);
  });

  test("a verified professional is refused and keeps the documents", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: true });
    const front = await storeFile(t);
    expect(
      await errorMessage(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: front }),
      ),
    ).toBe("Your account is already verified. To change your documents, please contact GharSewa.");
    expect(
      await errorCode(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: front }),
      ),
    ).toBe("ALREADY_VERIFIED");
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("verified");
    expect(await t.run((ctx) => ctx.db.query("uploads").collect())).toEqual([]);
  });

  test("visitors, customers and admins are refused", async () => {
    const t = newTest();
    const front = await storeFile(t);
    const { visitor, customer, admin } = await everyKindOfCaller(t);
    expect(
      await errorCode(
        visitor.mutation(api.professionals.resubmitDocuments, { citizenshipFront: front }),
      ),
    ).toBe("UNAUTHENTICATED");
    expect(
      await errorCode(
        customer.mutation(api.professionals.resubmitDocuments, { citizenshipFront: front }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await errorCode(
        admin.mutation(api.professionals.resubmitDocuments, { citizenshipFront: front }),
      ),
    ).toBe("FORBIDDEN");
  });

  test("nothing new, one file for two documents, or a kept document's file are refused", async () => {
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const file = await storeUpload(t, { userId: pro.userId });
    const resubmit = (
      args: Parameters<typeof pro.as.mutation<typeof api.professionals.resubmitDocuments>>[1],
    ) => errorMessage(pro.as.mutation(api.professionals.resubmitDocuments, args));
    expect(await resubmit({})).toBe("Choose at least one new document image.");
    expect(await resubmit({ citizenshipFront: pro.old.citizenshipFront })).toBe(
      "Choose at least one new document image.",
    );
    expect(await resubmit({ citizenshipFront: file, citizenshipBack: file })).toBe(
      "Upload a separate image for each document.",
    );
    expect(await resubmit({ citizenshipFront: pro.old.citizenshipBack })).toBe(
      "Upload a separate image for each document.",
    );
    expect(await pro.documents()).toEqual(pro.old);
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("rejected");
  });

  test("files are checked as at sign-up: too large or someone else's are refused at once", async () => {
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG_BYTES);
    const tooLarge = await storeUpload(t, { userId: pro.userId }, big);
    expect(
      await errorCode(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: tooLarge }),
      ),
    ).toBe("FILE_TOO_LARGE");
    const other = await rejectedProfessional(t);
    const taken = await storeUpload(t, { userId: other.userId });
    await other.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: taken });
    expect(
      await errorCode(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: taken }),
      ),
    ).toBe("FILE_NOT_YOURS");
    expect(await pro.documents()).toEqual(pro.old);
  });

  test("a new file whose bytes are not an image is deleted by the scheduled check and the profile rejected again", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const fake = await storeUpload(t, { userId: pro.userId }, NOT_AN_IMAGE);
    const good = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.professionals.resubmitDocuments, {
      citizenshipBack: good,
      trainingCertificate: fake,
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    expect(await stored(t, fake)).toBeNull();
    expect(await stored(t, good)).not.toBeNull();
    expect((await pro.as.query(api.professionals.me, {}))?.verification).toMatchObject({
      status: "rejected",
      note: "Training Certificate must be an image (JPEG, PNG, WebP or GIF).",
      noteFrom: "GharSewa",
    });
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
        .collect(),
    );
    expect(notes.map((n) => n.kind)).toEqual(["verification.rejected"]);
    expect(await t.run((ctx) => ctx.db.query("uploads").collect())).toEqual([
      expect.objectContaining({ storageId: good }),
    ]);
  });

  test("the scheduled check leaves a document alone once it was replaced again", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const pro = await rejectedProfessional(t);
    const fake = await storeUpload(t, { userId: pro.userId }, NOT_AN_IMAGE);
    const good = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: fake });
    await pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: good });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await pro.documents()).citizenshipFront).toBe(good);
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("unverified");
  });
});
