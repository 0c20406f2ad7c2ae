import { beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { writePosition } from "./model/locations";
import { noticeText, noticeWords } from "./rules/notificationText";
import {
  bookingRow,
  customerSignUp,
  errorCode,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  useAuthEnv,
  withSession,
} from "./test.setup";

beforeAll(useAuthEnv);

const REASON = "Repeated no-shows reported by customers";

describe("adminAccounts:suspend", () => {
  test("only admins may suspend or restore; customers and professionals are refused", async () => {
    const t = newTest();
    const target = await insertCustomer(t, "Target Customer");
    const { visitor, customer, professional, admin } = await everyKindOfCaller(t);
    const args = { userId: target.userId, reason: REASON };
    expect(await errorCode(visitor.mutation(api.adminAccounts.suspend, args))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await errorCode(customer.mutation(api.adminAccounts.suspend, args))).toBe("FORBIDDEN");
    expect(await errorCode(professional.mutation(api.adminAccounts.suspend, args))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(customer.mutation(api.adminAccounts.restore, args))).toBe("FORBIDDEN");
    expect(await errorCode(customer.query(api.adminAccounts.get, { userId: target.userId }))).toBe(
      "FORBIDDEN",
    );
    await admin.mutation(api.adminAccounts.suspend, args);
    expect((await t.run((ctx) => ctx.db.get("users", target.userId)))?.suspended?.reason).toBe(
      REASON,
    );
  });

  test("ends every session and push subscription at once: the user's queries see a visitor, accountStatus says suspended", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const sita = await insertCustomer(t);
    const phone = await withSession(t, sita.userId); // a second device
    await t.run((ctx) =>
      ctx.db.insert("pushSubscriptions", {
        userId: sita.userId,
        endpoint: "https://push.example.np/sita",
        p256dh: "key",
        auth: "secret",
        userAgent: "Chrome on Android",
        createdAt: Date.now(),
      }),
    );
    expect(await sita.as.query(api.users.viewer, {})).not.toBeNull();
    await admin.as.mutation(api.adminAccounts.suspend, { userId: sita.userId, reason: REASON });
    expect(await sita.as.query(api.users.viewer, {})).toBeNull();
    expect(await phone.as.query(api.users.viewer, {})).toBeNull();
    expect(await sita.as.query(api.users.accountStatus, {})).toBe("suspended");
    expect(await errorCode(sita.as.query(api.notifications.unreadCount, {}))).toBe(
      "UNAUTHENTICATED",
    );
    const left = await t.run((ctx) =>
      ctx.db
        .query("authSessions")
        .withIndex("userId", (q) => q.eq("userId", sita.userId))
        .collect(),
    );
    expect(left).toEqual([]);
    // their phone stops ringing for the account
    const devices = await t.run((ctx) =>
      ctx.db
        .query("pushSubscriptions")
        .withIndex("by_userId", (q) => q.eq("userId", sita.userId))
        .collect(),
    );
    expect(devices).toEqual([]);
    expect(await admin.as.query(api.users.accountStatus, {})).toBe("active");
    expect(await t.query(api.users.accountStatus, {})).toBe("none");
  });

  // three password hashes: slow on a shared machine
  test("a suspended user cannot sign in (ACCOUNT_SUSPENDED, only with the right password); restored, they can", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const params = await customerSignUp(t, "hari@example.np");
    await t.action(api.auth.signIn, { provider: "customer", params });
    const userId = (await t.run((ctx) =>
      ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "hari@example.np"))
        .unique(),
    ))!._id;
    await admin.as.mutation(api.adminAccounts.suspend, { userId, reason: REASON });
    const signIn = (password: string) =>
      t.action(api.auth.signIn, {
        provider: "customer",
        params: { flow: "signIn", email: "hari@example.np", password },
      });
    expect(await errorCode(signIn("wrong password"))).toBe("INVALID_CREDENTIALS");
    expect(await errorCode(signIn(params.password))).toBe("ACCOUNT_SUSPENDED");
    await admin.as.mutation(api.adminAccounts.restore, { userId, reason: "Cleared after a call" });
    expect((await signIn(params.password)).tokens?.token).toBeTypeOf("string");
  }, 30_000);

  test("a suspended professional leaves search, map and profile and cannot be booked; restored, they return", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const ram = await insertProfessional(t, { name: "Ram Thapa" });
    const sita = await insertCustomer(t);
    await t.run(async (ctx) =>
      writePosition(ctx, (await ctx.db.get("professionals", ram.professionalId))!, {
        lat: 27.7,
        lng: 85.3,
      }),
    );
    const listed = async () => ({
      search: (
        await t.query(api.professionals.search, { specialty: "electrician", city: "kathmandu" })
      ).map((c) => c._id),
      map: (await t.query(api.locations.current, { city: "kathmandu" })).map(
        (m) => m.professionalId,
      ),
      profile: (await sita.as.query(api.professionals.get, { professionalId: ram.professionalId }))
        ?._id,
    });
    expect(await listed()).toEqual({
      search: [ram.professionalId],
      map: [ram.professionalId],
      profile: ram.professionalId,
    });
    await admin.as.mutation(api.adminAccounts.suspend, { userId: ram.userId, reason: REASON });
    expect(await listed()).toEqual({ search: [], map: [], profile: undefined });
    // admins still see the profile
    expect(
      (await admin.as.query(api.professionals.get, { professionalId: ram.professionalId }))?._id,
    ).toBe(ram.professionalId);
    const service = await t.run((ctx) =>
      ctx.db.insert("services", {
        category: "electrical",
        name: "Fan repair",
        description: "Fans",
        serviceWarranty: "30 days",
        availableCities: [{ name: "kathmandu", price: 500 }],
        totalBookings: 0,
      }),
    );
    const book = () =>
      sita.as.mutation(api.bookings.create, {
        professionalId: ram.professionalId,
        serviceIds: [service],
        address: "Ward 4, Baneshwor",
        city: "kathmandu",
        scheduledFor: Date.now() + 3 * 3_600_000,
      });
    expect(await errorCode(book())).toBe("NOT_FOUND");
    await admin.as.mutation(api.adminAccounts.restore, {
      userId: ram.userId,
      reason: "Documents checked again",
    });
    const back = await listed();
    expect(back.search).toEqual([ram.professionalId]);
    expect(back.profile).toBe(ram.professionalId);
    expect(back.map).toEqual([]); // until they next share their position
    await book();
  });

  test("open bookings are cancelled by GharSewa with the reason; both parties are told; the log names the admin", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const ram = await insertProfessional(t);
    const sita = await insertCustomer(t);
    const [requested, running, done] = await t.run(async (ctx) => [
      await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "requested")),
      await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "in_progress")),
      await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "completed")),
    ]);
    await admin.as.mutation(api.adminAccounts.suspend, { userId: ram.userId, reason: REASON });
    const state = await t.run(async (ctx) => ({
      statuses: await Promise.all(
        [requested, running, done].map(async (id) => (await ctx.db.get("bookings", id))?.status),
      ),
      events: await ctx.db
        .query("bookingEvents")
        .withIndex("by_bookingId", (q) => q.eq("bookingId", running))
        .collect(),
      told: await ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", sita.userId))
        .collect(),
    }));
    expect(state.statuses).toEqual(["cancelled", "cancelled", "completed"]);
    expect(state.events).toMatchObject([
      { from: "in_progress", to: "cancelled", actorId: admin.userId },
    ]);
    expect(state.told.map((n) => n.kind)).toEqual(["booking.cancelled", "booking.cancelled"]);
    expect(state.told[0].body).toContain("GharSewa cancelled");
    // the customer reads who and why in their own language
    const nepali = noticeText("ne-NP", state.told[0]).body;
    expect(nepali).toMatch(/^घर सेवाले /);
    expect(nepali).toContain(noticeWords("ne-NP").reason_suspended);
  });

  test("before confirming, the admin sees the open bookings a suspension would cancel", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const ram = await insertProfessional(t);
    const sita = await insertCustomer(t);
    await t.run(async (ctx) => {
      await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "in_progress"));
      await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "completed"));
    });
    const ofPro = await admin.as.query(api.adminAccounts.get, { userId: ram.userId });
    expect(ofPro?.openBookings).toMatchObject([
      { status: "in_progress", otherName: "Sita Sharma" },
    ]);
    const ofCustomer = await admin.as.query(api.adminAccounts.get, { userId: sita.userId });
    expect(ofCustomer?.openBookings).toHaveLength(1);
    await admin.as.mutation(api.adminAccounts.suspend, { userId: ram.userId, reason: REASON });
    expect(
      (await admin.as.query(api.adminAccounts.get, { userId: ram.userId }))?.openBookings,
    ).toEqual([]);
  });

  test("an admin cannot suspend themself, so never the last admin; a retry changes nothing", async () => {
    const t = newTest();
    const first = await insertAdmin(t, "first");
    expect(
      await errorCode(
        first.as.mutation(api.adminAccounts.suspend, { userId: first.userId, reason: REASON }),
      ),
    ).toBe("CANNOT_SUSPEND_SELF");
    const second = await insertAdmin(t, "second");
    await first.as.mutation(api.adminAccounts.suspend, { userId: second.userId, reason: REASON });
    await first.as.mutation(api.adminAccounts.suspend, { userId: second.userId, reason: "Again" });
    // the suspended admin is signed out and cannot act on the last one standing
    expect(
      await errorCode(
        second.as.mutation(api.adminAccounts.suspend, { userId: first.userId, reason: REASON }),
      ),
    ).toBe("UNAUTHENTICATED");
    expect(
      await errorCode(
        first.as.mutation(api.adminAccounts.restore, { userId: second.userId, reason: "" }),
      ),
    ).toBe("REASON_REQUIRED");
    const row = await first.as.query(api.adminAccounts.get, { userId: second.userId });
    expect(row?.history.map((h) => [h.action, h.reason])).toEqual([["suspended", REASON]]);
    expect(row?.suspended).toMatchObject({ reason: REASON, byName: "Admin" });
  });

  test("get: the account, whether suspended, by whom and why, and its history newest first", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const sita = await insertCustomer(t);
    await admin.as.mutation(api.adminAccounts.suspend, { userId: sita.userId, reason: REASON });
    await admin.as.mutation(api.adminAccounts.restore, {
      userId: sita.userId,
      reason: "Spoke with her on the phone",
    });
    const row = await admin.as.query(api.adminAccounts.get, { userId: sita.userId });
    expect(row).toMatchObject({ name: "Sita Sharma", role: "customer", suspended: null });
    expect(row?.history.map((h) => [h.action, h.reason, h.adminName])).toEqual([
      ["restored", "Spoke with her on the phone", "Admin"],
      ["suspended", REASON, "Admin"],
    ]);
    const list = await admin.as.query(api.admin.users, {});
    expect(list.find((u) => u._id === sita.userId)?.suspended).toBe(false);
  });
});
