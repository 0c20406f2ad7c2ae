import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { hashPassword } from "./model/passwords";
import {
  bookingRow,
  deleteAccountOf,
  errorCode,
  errorMessage,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  storeUpload,
} from "./test.setup";

afterEach(() => {
  vi.useRealTimers();
});

const profile = {
  name: "Sita Sharma",
  phone: "9801234567",
  address: "Ward 5, Lalitpur",
  zipCode: "44700",
};

describe("users:viewer", () => {
  test("null for visitors; the public profile for each role", async () => {
    const t = newTest();
    expect(await t.query(api.users.viewer, {})).toBeNull();
    const customer = await insertCustomer(t);
    const pro = await insertProfessional(t);
    const admin = await insertAdmin(t, "root");
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({
      _id: customer.userId,
      role: "customer",
      name: "Sita Sharma",
      phone: "9800000001",
      photoUrl: null,
      zipCode: "44600",
    });
    expect((await pro.as.query(api.users.viewer, {}))?.role).toBe("professional");
    expect(await admin.as.query(api.users.viewer, {})).toMatchObject({
      role: "admin",
      username: "root",
      email: "",
    });
  });

  test("null once the account is gone", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    await t.run((ctx) => ctx.db.delete("users", customer.userId));
    expect(await customer.as.query(api.users.viewer, {})).toBeNull();
  });
});

describe("users:updateProfile", () => {
  test("every signed-in role edits their own profile; visitors are refused", async () => {
    const t = newTest();
    const people = [await insertCustomer(t), await insertProfessional(t), await insertAdmin(t)];
    for (const [i, { as, userId }] of people.entries()) {
      const own = { ...profile, phone: `980123456${i}` };
      await as.mutation(api.users.updateProfile, own);
      expect(await t.run((ctx) => ctx.db.get("users", userId))).toMatchObject(own);
    }
    expect(await errorCode(t.mutation(api.users.updateProfile, profile))).toBe("UNAUTHENTICATED");
  });

  test("a phone number belongs to one account: another's is refused, one's own is kept", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    const ram = await insertProfessional(t);
    await sita.as.mutation(api.users.updateProfile, { ...profile, phone: "+977 980-1234567" });
    expect(await t.run(async (ctx) => (await ctx.db.get("users", sita.userId))?.phone)).toBe(
      "9801234567",
    );
    await sita.as.mutation(api.users.updateProfile, { ...profile, phone: "9801234567" });
    expect(
      await errorCode(
        ram.as.mutation(api.users.updateProfile, { ...profile, phone: "980 1234567" }),
      ),
    ).toBe("PHONE_TAKEN");
  });

  test("input rules are the sign-up rules", async () => {
    const t = newTest();
    const { as } = await insertCustomer(t);
    expect(
      await errorMessage(as.mutation(api.users.updateProfile, { ...profile, phone: "call me" })),
    ).toBe("Enter a Nepali mobile (98XXXXXXXX / 97XXXXXXXX) or landline (e.g. 01-4123456).");
    expect(await errorCode(as.mutation(api.users.updateProfile, { ...profile, name: " " }))).toBe(
      "INVALID_INPUT",
    );
  });

  test("a new photo replaces (and deletes) the old one", async () => {
    const t = newTest();
    const { as, userId } = await insertCustomer(t);
    const first = await storeUpload(t, { userId });
    const second = await storeUpload(t, { userId });
    await as.mutation(api.users.updateProfile, { ...profile, photo: first });
    await as.mutation(api.users.updateProfile, { ...profile, photo: second });
    await t.finishAllScheduledFunctions(() => {});
    expect((await t.run((ctx) => ctx.db.get("users", userId)))?.photo).toBe(second);
    expect(await t.run((ctx) => ctx.db.system.get("_storage", first))).toBeNull();
    expect((await as.query(api.users.viewer, {}))?.photoUrl).toMatch(/^https?:/);
  });

  test("a file attached to one account cannot be attached to another", async () => {
    const t = newTest();
    const victim = await insertCustomer(t, "Victim");
    const thief = await insertCustomer(t, "Thief");
    const photo = await storeUpload(t, { userId: victim.userId });
    await victim.as.mutation(api.users.updateProfile, { ...profile, photo });
    const own = { ...profile, phone: "9807654321" };
    expect(await errorCode(thief.as.mutation(api.users.updateProfile, { ...own, photo }))).toBe(
      "FILE_NOT_YOURS",
    );
    await deleteAccountOf(t, thief);
    expect(await t.run((ctx) => ctx.db.system.get("_storage", photo))).not.toBeNull();
  });

  test("a photo over 5 MB is refused at once", async () => {
    const t = newTest();
    const { as, userId } = await insertCustomer(t);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    const id = await storeUpload(t, { userId }, big, "image/jpeg");
    expect(await errorCode(as.mutation(api.users.updateProfile, { ...profile, photo: id }))).toBe(
      "FILE_TOO_LARGE",
    );
    expect((await as.query(api.users.viewer, {}))?.photoUrl).toBeNull();
  });

  test("a photo whose bytes are not an image is detached and deleted by the scheduled check", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const { as, userId } = await insertCustomer(t);
    const fake = await storeUpload(
      t,
      { userId },
      new TextEncoder().encode("<html>not an image</html>"),
    );
    await as.mutation(api.users.updateProfile, { ...profile, photo: fake });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await t.run((ctx) => ctx.db.get("users", userId)))?.photo).toBeUndefined();
    expect(await t.run((ctx) => ctx.db.system.get("_storage", fake))).toBeNull();
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .collect(),
    );
    expect(notes.map((n) => n.kind)).toEqual(["account.photo_rejected"]);
  });
});

describe("users:exportMyData", () => {
  test("returns the caller's own data; visitors are refused", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const data = await pro.as.query(api.users.exportMyData, {});
    expect(data.account._id).toBe(pro.userId);
    expect(data.professional?._id).toBe(pro.professionalId);
    expect(data.professional?.documents.citizenshipFront).toMatch(/^https?:/);
    expect(data.bookingsAsCustomer).toEqual([]);
    const customer = await insertCustomer(t);
    expect((await customer.as.query(api.users.exportMyData, {})).professional).toBeNull();
    expect(await errorCode(t.query(api.users.exportMyData, {}))).toBe("UNAUTHENTICATED");
  });

  test("carries the chat messages the caller sent, not the other side's", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    const customer = await insertCustomer(t);
    const bookingId = await t.run((ctx) =>
      ctx.db.insert("bookings", bookingRow(customer.userId, pro, "accepted")),
    );
    await customer.as.mutation(api.chat.send, { bookingId, text: "Which gate?" });
    await pro.as.mutation(api.chat.send, { bookingId, quickReply: "on_my_way" });
    const mine = (await customer.as.query(api.users.exportMyData, {})).messagesSent;
    expect(mine.map((m) => [m.bookingId, m.text, m.photoUrls])).toEqual([
      [bookingId, "Which gate?", []],
    ]);
    const theirs = (await pro.as.query(api.users.exportMyData, {})).messagesSent;
    expect(theirs.map((m) => m.quickReply)).toEqual(["on_my_way"]);
  });
});

describe("users:deleteAccount", () => {
  test("removes the user, the profile, the documents, sessions and accounts; notifications later", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const pro = await insertProfessional(t);
    const docs = (await t.run((ctx) => ctx.db.get("professionals", pro.professionalId)))!.documents;
    await t.run(async (ctx) => {
      const sessionId = await ctx.db.insert("authSessions", {
        userId: pro.userId,
        expirationTime: Date.now() + 1000,
      });
      await ctx.db.insert("authRefreshTokens", { sessionId, expirationTime: Date.now() + 1000 });
      await ctx.db.insert("authAccounts", {
        userId: pro.userId,
        provider: "professional",
        providerAccountId: "x@example.np",
      });
      await ctx.db.insert("notifications", {
        userId: pro.userId,
        kind: "k",
        title: "t",
        body: "b",
      });
    });
    await deleteAccountOf(t, pro);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    await t.run(async (ctx) => {
      expect(await ctx.db.get("users", pro.userId)).toBeNull();
      expect(await ctx.db.get("professionals", pro.professionalId)).toBeNull();
      expect(await ctx.db.system.get("_storage", docs.citizenshipFront)).toBeNull();
      for (const table of [
        "authSessions",
        "authRefreshTokens",
        "authAccounts",
        "notifications",
      ] as const) {
        expect(await ctx.db.query(table).take(1)).toEqual([]);
      }
    });
  });

  test("open requests are cancelled; bookings under way block deletion", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const pro = await insertProfessional(t);
    const bookingId = await t.run((ctx) =>
      ctx.db.insert("bookings", bookingRow(customer.userId, pro, "accepted", { updatedAt: 1 })),
    );
    expect(await errorCode(deleteAccountOf(t, customer))).toBe("BOOKINGS_UNDER_WAY");
    await t.run((ctx) => ctx.db.patch("bookings", bookingId, { status: "requested" }));
    await deleteAccountOf(t, customer);
    expect((await t.run((ctx) => ctx.db.get("bookings", bookingId)))?.status).toBe("cancelled");
  });

  test("the last admin cannot be deleted; visitors are refused", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    expect(await errorCode(deleteAccountOf(t, admin))).toBe("LAST_ADMIN");
    await insertAdmin(t, "second");
    await deleteAccountOf(t, admin);
    expect(await errorCode(t.action(api.users.deleteAccount, { password: "x" }))).toBe(
      "UNAUTHENTICATED",
    );
  });

  test("only the account's password deletes it; wrong tries count as sign-in tries", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    await t.run(async (ctx) =>
      ctx.db.insert("authAccounts", {
        userId: customer.userId,
        provider: "customer",
        providerAccountId: "sita@example.np",
        secret: await hashPassword("correct horse"),
      }),
    );
    const remove = (password: string) => customer.as.action(api.users.deleteAccount, { password });
    expect(await errorCode(remove("wrong horse"))).toBe("WRONG_PASSWORD");
    expect(await t.run((ctx) => ctx.db.get("users", customer.userId))).not.toBeNull();
    const tries = await t.run((ctx) => ctx.db.query("rateLimits").collect());
    expect(tries.map((row) => row.key)).toContain("signIn:perAccount:sita@example.np");
    expect(await remove("correct horse")).toBeNull();
    expect(await t.run((ctx) => ctx.db.get("users", customer.userId))).toBeNull();
  });
});

describe("users:setLanguage", () => {
  test("a signed-in user's choice is kept in their profile; visitors are refused", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const pro = await insertProfessional(t);
    expect((await customer.as.query(api.users.viewer, {}))?.language).toBeUndefined();
    await customer.as.mutation(api.users.setLanguage, { language: "ne-NP" });
    await pro.as.mutation(api.users.setLanguage, { language: "en" });
    expect((await customer.as.query(api.users.viewer, {}))?.language).toBe("ne-NP");
    expect((await pro.as.query(api.users.viewer, {}))?.language).toBe("en");
    expect(await errorCode(t.mutation(api.users.setLanguage, { language: "en" }))).toBe(
      "UNAUTHENTICATED",
    );
    await expect(
      customer.as.mutation(api.users.setLanguage, { language: "fr" as "en" }),
    ).rejects.toThrow(/Validator/);
  });

  test("a language an older app saved without a switch is not offered for adoption", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    await t.run((ctx) => ctx.db.patch("users", customer.userId, { language: "en" }));
    expect((await customer.as.query(api.users.viewer, {}))?.language).toBeUndefined();
    await customer.as.mutation(api.users.setLanguage, { language: "en" });
    expect((await customer.as.query(api.users.viewer, {}))?.language).toBe("en");
  });
});
