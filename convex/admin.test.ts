import type { FunctionArgs } from "convex/server";
import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import {
  bookingRow,
  type Caller,
  codeIn,
  errorCode,
  errorMessage,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  outbox,
  type TestConvex,
  useAuthEnv,
} from "./test.setup";

beforeAll(useAuthEnv);

type Filters = Omit<FunctionArgs<typeof api.admin.technicians>, "paginationOpts">;

/** The first page (large enough for these tests) of the admin grid. */
async function firstPage(as: Caller, filters: Filters) {
  return (
    await as.query(api.admin.technicians, {
      ...filters,
      paginationOpts: { numItems: 50, cursor: null },
    })
  ).page;
}

async function refusedForNonAdmins(t: TestConvex, call: (as: Caller) => Promise<unknown>) {
  const { visitor, customer, professional } = await everyKindOfCaller(t);
  expect(await errorCode(call(visitor))).toBe("UNAUTHENTICATED");
  expect(await errorCode(call(customer))).toBe("FORBIDDEN");
  expect(await errorCode(call(professional))).toBe("FORBIDDEN");
}

describe("admin queries", () => {
  test("technicians: filters through indexes; contact details and online state for admins", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const a = await insertProfessional(t, { name: "A", specialty: "plumber", city: "pokhara" });
    await insertProfessional(t, {
      name: "B",
      specialty: "plumber",
      city: "kathmandu",
      verified: false,
    });
    await insertProfessional(t, { name: "C", specialty: "painter", city: "pokhara" });
    await insertProfessional(t, {
      name: "D",
      specialty: "painter",
      city: "pokhara",
      verified: false,
    });
    await t.run((ctx) =>
      ctx.db.insert("presence", {
        userId: a.userId,
        role: "professional",
        online: true,
        lastSeen: 1,
      }),
    );
    const names = async (filters: Filters) =>
      (await firstPage(admin.as, filters)).map((r) => r.name);
    expect(await names({})).toEqual(["D", "C", "B", "A"]);
    const pokharaPlumbers = await firstPage(admin.as, { city: "pokhara", specialty: "plumber" });
    expect(pokharaPlumbers).toHaveLength(1);
    expect(pokharaPlumbers[0]).toMatchObject({
      name: "A",
      online: true,
      verification: { status: "verified" },
    });
    expect(pokharaPlumbers[0].email).toContain("@");
    expect(await names({ verification: "unverified" })).toEqual(["D", "B"]);
    expect(await names({ verification: "unverified", city: "pokhara" })).toEqual(["D"]);
    expect(await names({ verification: "verified", specialty: "painter" })).toEqual(["C"]);
    expect(await names({ city: "pokhara" })).toEqual(["D", "C", "A"]);
    expect(await names({ specialty: "plumber" })).toEqual(["A", "B"]); // by city, then newest
    await refusedForNonAdmins(t, (as) =>
      as.query(api.admin.technicians, { paginationOpts: { numItems: 10, cursor: null } }),
    );
  });

  test("technicians: a page at a time, filters applied before the page is cut", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    for (let i = 0; i < 7; i++)
      await insertProfessional(t, { name: `P${i}`, city: "pokhara", verified: i % 2 === 0 });
    const pages: string[][] = [];
    let cursor: string | null = null;
    for (;;) {
      const result: { page: { name: string }[]; isDone: boolean; continueCursor: string } =
        await admin.as.query(api.admin.technicians, {
          verification: "verified",
          paginationOpts: { numItems: 2, cursor },
        });
      pages.push(result.page.map((r) => r.name));
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
    expect(pages.flat()).toEqual(["P6", "P4", "P2", "P0"]);
    expect(pages[0]).toHaveLength(2);
  });

  test("technician: documents for admins only", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const pro = await insertProfessional(t);
    const row = await admin.as.query(api.admin.technician, { professionalId: pro.professionalId });
    expect(row?.documents.trainingCertificate).toMatch(/^https?:/);
    await refusedForNonAdmins(t, (as) =>
      as.query(api.admin.technician, { professionalId: pro.professionalId }),
    );
  });

  test("users: newest first, by name search or exact email, with booking counts", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const sita = await insertCustomer(t, "Sita Sharma");
    await insertCustomer(t, "Gita Gurung");
    const email = (await t.run((ctx) => ctx.db.get("users", sita.userId)))!.email!;
    const all = await admin.as.query(api.admin.users, {});
    expect(all.map((u) => u.name)).toEqual(["Gita Gurung", "Sita Sharma", "Admin"]);
    expect(all[0]).toMatchObject({ role: "customer", bookingCount: 0 });
    expect((await admin.as.query(api.admin.users, { search: "sita" })).map((u) => u.name)).toEqual([
      "Sita Sharma",
    ]);
    expect(
      (await admin.as.query(api.admin.users, { search: email.toUpperCase() })).map((u) => u._id),
    ).toEqual([sita.userId]);
    await refusedForNonAdmins(t, (as) => as.query(api.admin.users, {}));
  });

  test("users: narrowed to one role or to the suspended, with or without a search", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const sita = await insertCustomer(t, "Sita Sharma");
    const gita = await insertCustomer(t, "Gita Gurung");
    const ram = await insertProfessional(t, { name: "Ram Sharma" });
    const names = async (args: FunctionArgs<typeof api.admin.users>) =>
      (await admin.as.query(api.admin.users, args)).map((u) => u.name);
    expect(await names({ show: "customer" })).toEqual(["Gita Gurung", "Sita Sharma"]);
    expect(await names({ show: "professional" })).toEqual(["Ram Sharma"]);
    expect(await names({ show: "admin" })).toEqual(["Admin"]);
    expect(await names({ show: "suspended" })).toEqual([]);

    for (const userId of [sita.userId, ram.userId, gita.userId]) {
      await admin.as.mutation(api.adminAccounts.suspend, { userId, reason: "Fake documents" });
    }
    // the most recently suspended first
    expect(await names({ show: "suspended" })).toEqual([
      "Gita Gurung",
      "Ram Sharma",
      "Sita Sharma",
    ]);
    expect((await names({ search: "sharma", show: "suspended" })).sort()).toEqual([
      "Ram Sharma",
      "Sita Sharma",
    ]);
    expect(await names({ search: "sharma", show: "customer" })).toEqual(["Sita Sharma"]);
    await admin.as.mutation(api.adminAccounts.restore, { userId: sita.userId, reason: "Cleared" });
    expect(await names({ search: "sharma", show: "suspended" })).toEqual(["Ram Sharma"]);

    const email = (await t.run((ctx) => ctx.db.get("users", ram.userId)))!.email!;
    expect(await names({ search: email, show: "professional" })).toEqual(["Ram Sharma"]);
    expect(await names({ search: email, show: "customer" })).toEqual([]);
    await expect(
      admin.as.query(api.admin.users, { show: "everyone" } as unknown as FunctionArgs<
        typeof api.admin.users
      >),
    ).rejects.toThrow(/Validator error: Expected one of/);
    await refusedForNonAdmins(t, (as) => as.query(api.admin.users, { show: "suspended" }));
  });

  test("stats: users by role, bookings by status, online professionals, pending verifications", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const customer = await insertCustomer(t);
    const pro = await insertProfessional(t);
    await insertProfessional(t, { verified: false });
    await t.run(async (ctx) => {
      await ctx.db.insert("presence", {
        userId: pro.userId,
        role: "professional",
        online: true,
        lastSeen: 1,
      });
      await ctx.db.insert("presence", {
        userId: customer.userId,
        role: "customer",
        online: true,
        lastSeen: 1,
      });
      await ctx.db.insert(
        "bookings",
        bookingRow(customer.userId, pro, "requested", { scheduledFor: 1, updatedAt: 1 }),
      );
    });
    const stats = await admin.as.query(api.admin.stats, {});
    expect(stats).toMatchObject({
      users: { customer: 1, professional: 2, admin: 1 },
      onlineProfessionals: 1,
      pendingVerifications: 1,
      capped: false,
    });
    expect(stats.bookings).toMatchObject({ requested: 1, completed: 0 });
    await refusedForNonAdmins(t, (as) => as.query(api.admin.stats, {}));
  });

  test("messages: contact messages newest first", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    await t.mutation(api.contact.send, {
      name: "Maya",
      email: "maya@example.np",
      message: "Please add Butwal.",
    });
    const messages = await admin.as.query(api.admin.messages, {});
    expect(messages).toMatchObject([
      { name: "Maya", email: "maya@example.np", message: "Please add Butwal.", userId: null },
    ]);
    await refusedForNonAdmins(t, (as) => as.query(api.admin.messages, {}));
  });
});

describe("admin mutations", () => {
  test("verify: records who and when, notifies the professional; rejecting needs a note", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const pro = await insertProfessional(t, { verified: false });
    expect(
      await errorCode(
        admin.as.mutation(api.admin.verify, {
          professionalId: pro.professionalId,
          decision: "rejected",
        }),
      ),
    ).toBe("INVALID_INPUT");
    await admin.as.mutation(api.admin.verify, {
      professionalId: pro.professionalId,
      decision: "verified",
    });
    const me = await pro.as.query(api.professionals.me, {});
    expect(me?.verification.status).toBe("verified");
    expect(me?.verification.at).toBeTypeOf("number");
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
        .collect(),
    );
    expect(notes.map((n) => n.kind)).toEqual(["verification.verified"]);
    await admin.as.mutation(api.admin.verify, {
      professionalId: pro.professionalId,
      decision: "rejected",
      note: "Certificate unreadable",
    });
    expect((await pro.as.query(api.professionals.me, {}))?.verification).toMatchObject({
      status: "rejected",
      note: "Certificate unreadable",
      noteFrom: "the admin",
    });
    await refusedForNonAdmins(t, (as) =>
      as.mutation(api.admin.verify, { professionalId: pro.professionalId, decision: "verified" }),
    );
  });

  test("verify: refused until the professional's phone is verified, and again after it changes", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const pro = await insertProfessional(t, { verified: false, phoneVerified: false });
    const verify = () =>
      admin.as.mutation(api.admin.verify, {
        professionalId: pro.professionalId,
        decision: "verified",
      });
    expect(await errorCode(verify())).toBe("PHONE_NOT_VERIFIED");
    expect(await errorMessage(verify())).toMatch(/verified their phone number/);
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("unverified");
    // rejecting needs no verified phone
    await admin.as.mutation(api.admin.verify, {
      professionalId: pro.professionalId,
      decision: "rejected",
      note: "Certificate unreadable",
    });

    // the professional verifies their phone by the SMS code: the admin may verify them
    await pro.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    const code = codeIn((await outbox(t)).filter((sms) => sms.to === "9800000002").at(-1))!;
    expect(await pro.as.mutation(api.contactVerification.confirm, { kind: "phone", code })).toBe(
      true,
    );
    await verify();
    expect((await pro.as.query(api.professionals.me, {}))?.verification.status).toBe("verified");

    // a new number is not verified: the admin cannot verify them again until it is
    const user = await t.run((ctx) => ctx.db.get("users", pro.userId));
    await pro.as.mutation(api.users.updateProfile, {
      name: user!.name!,
      phone: "9811111112",
      address: user!.address!,
      zipCode: user!.zipCode!,
    });
    expect(
      await admin.as.query(api.admin.technician, { professionalId: pro.professionalId }),
    ).toMatchObject({ phoneVerified: false });
    expect(await errorCode(verify())).toBe("PHONE_NOT_VERIFIED");
  });

  test("setAvailability: an admin switches a professional off", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const pro = await insertProfessional(t);
    await admin.as.mutation(api.admin.setAvailability, {
      professionalId: pro.professionalId,
      available: false,
    });
    expect((await pro.as.query(api.professionals.me, {}))?.available).toBe(false);
    await refusedForNonAdmins(t, (as) =>
      as.mutation(api.admin.setAvailability, {
        professionalId: pro.professionalId,
        available: true,
      }),
    );
  });

  test("updateSettings: validated, read back by settings:get", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    await admin.as.mutation(api.admin.updateSettings, {
      hotline: "01-4440000",
      bookingExpiryMinutes: 45,
    });
    expect(await t.query(api.settings.get, {})).toMatchObject({
      hotline: "01-4440000",
      bookingExpiryMinutes: 45,
    });
    expect(
      await errorCode(admin.as.mutation(api.admin.updateSettings, { bookingExpiryMinutes: 2.5 })),
    ).toBe("INVALID_INPUT");
    expect(
      await errorCode(admin.as.mutation(api.admin.updateSettings, { hotline: "call me" })),
    ).toBe("INVALID_INPUT");
    expect(await errorCode(admin.as.mutation(api.admin.updateSettings, { bannerText: " " }))).toBe(
      "INVALID_INPUT",
    );
    await refusedForNonAdmins(t, (as) =>
      as.mutation(api.admin.updateSettings, { bannerText: "Hello" }),
    );
  });
});

describe("admin accounts", () => {
  test("createAdmin refuses a taken username and bad usernames", async () => {
    const t = newTest();
    await t.action(internal.admin.createAdmin, { username: "ops", password: "a long secret" });
    expect(
      await errorCode(
        t.action(internal.admin.createAdmin, { username: "OPS", password: "another secret" }),
      ),
    ).toBe("USERNAME_TAKEN");
    expect(
      await errorCode(
        t.action(internal.admin.createAdmin, { username: "ops", password: "a long secret" }),
      ),
    ).toBe("USERNAME_TAKEN");
    expect(await errorCode(t.action(internal.admin.createAdmin, { username: "x" }))).toBe(
      "INVALID_INPUT",
    );
    expect(
      await errorCode(
        t.action(internal.admin.createAdmin, { username: "ops2", password: "short" }),
      ),
    ).toBe("INVALID_INPUT");
  });

  test("ensureFirstAdmin creates 'admin' once, on a database without admins", async () => {
    const t = newTest();
    const first = await t.action(internal.admin.ensureFirstAdmin, {});
    expect(first?.username).toBe("admin");
    expect(first?.setupToken).toMatch(/^[0-9a-f]{64}$/);
    expect(await t.action(internal.admin.ensureFirstAdmin, {})).toBeNull();
  });
});
