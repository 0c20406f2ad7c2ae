import { Secret, TOTP as Totp } from "otpauth/slim";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { RATE_LIMITS } from "./rules/limits";
import { RECOVERY_CODES, TOTP } from "./rules/twoFactor";
import {
  errorCode,
  insertCustomer,
  insertProfessional,
  newTest,
  useAuthEnv,
  withSession,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

const STEP_MS = TOTP.periodSeconds * 1000;

// the middle of a time step, held still: which step a code belongs to must not drift mid-test
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2);
});
afterEach(() => {
  vi.useRealTimers();
});

/** The code an authenticator app shows for `key`, `steps` time steps from now. */
function codeFor(key: string, steps = 0): string {
  return Totp.generate({
    secret: Secret.fromBase32(key),
    timestamp: Date.now() + steps * STEP_MS,
  });
}

async function newAdmin(t: TestConvex, username = "boss") {
  const { password } = await t.action(internal.admin.createAdmin, { username });
  const userId = await t.run(async (ctx) => {
    const user = await ctx.db
      .query("users")
      .withIndex("by_username", (q) => q.eq("username", username))
      .unique();
    return user!._id;
  });
  return { username, password, userId, ...(await withSession(t, userId)) };
}

/** An admin who has set up an authenticator; `key` is what the app holds. */
async function enrolledAdmin(t: TestConvex) {
  const admin = await newAdmin(t);
  const { key } = await admin.as.mutation(api.twoFactor.begin, {});
  const confirmed = await admin.as.mutation(api.twoFactor.confirm, { code: codeFor(key) });
  return { ...admin, key, recoveryCodes: confirmed!.recoveryCodes };
}

const signIn = (t: TestConvex, params: Record<string, unknown>) =>
  t.action(api.auth.signIn, { provider: "admin", params: { flow: "signIn", ...params } });

const rowOf = (t: TestConvex, userId: Id<"users">) =>
  t.run((ctx) =>
    ctx.db
      .query("twoFactor")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  );

describe("setting up an authenticator", () => {
  test("the first right code turns two-factor on and returns the recovery codes once", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    const other = await withSession(t, admin.userId);
    expect(await admin.as.query(api.twoFactor.status, {})).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const { uri, key } = await admin.as.mutation(api.twoFactor.begin, {});
    expect(uri).toMatch(/^otpauth:\/\/totp\/GharSewa:boss\?/);
    expect(uri).toContain(`secret=${key}`);
    expect(await admin.as.mutation(api.twoFactor.confirm, { code: "000000" })).toBeNull();
    const confirmed = await admin.as.mutation(api.twoFactor.confirm, { code: codeFor(key) });
    expect(confirmed!.recoveryCodes).toHaveLength(RECOVERY_CODES.count);
    expect(new Set(confirmed!.recoveryCodes).size).toBe(RECOVERY_CODES.count);
    for (const code of confirmed!.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await admin.as.query(api.twoFactor.status, {})).toEqual({
      enabled: true,
      recoveryCodesLeft: RECOVERY_CODES.count,
    });
    // stored sealed and hashed: neither the key nor a code can be read back
    const row = await rowOf(t, admin.userId);
    expect(row!.secret).not.toContain(key);
    const stored = JSON.stringify(row);
    for (const code of confirmed!.recoveryCodes)
      expect(stored).not.toContain(code.replace("-", ""));
    // the sessions opened with a password alone end; this one stays
    expect(await t.run((ctx) => ctx.db.get("authSessions", other.sessionId))).toBeNull();
    expect(await t.run((ctx) => ctx.db.get("authSessions", admin.sessionId))).not.toBeNull();
    expect(await errorCode(admin.as.mutation(api.twoFactor.begin, {}))).toBe(
      "TWO_FACTOR_ALREADY_ON",
    );
  });

  test("a setup not confirmed within its lifetime has to start again", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    const { key } = await admin.as.mutation(api.twoFactor.begin, {});
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("twoFactor")
        .withIndex("by_userId", (q) => q.eq("userId", admin.userId))
        .unique();
      await ctx.db.patch("twoFactor", row!._id, {
        setupStartedAt: Date.now() - TOTP.setupLifetimeMs - 1,
      });
    });
    expect(await errorCode(admin.as.mutation(api.twoFactor.confirm, { code: codeFor(key) }))).toBe(
      "TWO_FACTOR_SETUP_EXPIRED",
    );
  });

  test("only a signed-in admin may set up, read or replace codes", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const visitor = t;
    for (const [caller, expected] of [
      [customer.as, "FORBIDDEN"],
      [visitor, "UNAUTHENTICATED"],
    ] as const) {
      expect(await errorCode(caller.query(api.twoFactor.status, {}))).toBe(expected);
      expect(await errorCode(caller.mutation(api.twoFactor.begin, {}))).toBe(expected);
      expect(await errorCode(caller.mutation(api.twoFactor.confirm, { code: "123456" }))).toBe(
        expected,
      );
      expect(
        await errorCode(caller.mutation(api.twoFactor.replaceRecovery, { code: "123456" })),
      ).toBe(expected);
    }
  });
});

describe("an admin's sign-in with two-factor on", () => {
  test("needs the password first, then a code; a code is accepted once", async () => {
    const t = newTest();
    const admin = await enrolledAdmin(t);
    const { username, password } = admin;
    expect(await errorCode(signIn(t, { username, password: "wrong password" }))).toBe(
      "INVALID_CREDENTIALS",
    );
    expect(await errorCode(signIn(t, { username, password }))).toBe("TWO_FACTOR_REQUIRED");
    expect(await errorCode(signIn(t, { username, password, code: "123" }))).toBe("INVALID_CODE");
    // the setup used this step's code: the next step's is the one still unused
    expect(await errorCode(signIn(t, { username, password, code: codeFor(admin.key) }))).toBe(
      "INVALID_CODE",
    );
    const fresh = codeFor(admin.key, 1);
    const ok = await signIn(t, { username, password, code: fresh });
    expect(ok.tokens?.token).toBeTypeOf("string");
    expect(await errorCode(signIn(t, { username, password, code: fresh }))).toBe("INVALID_CODE");
  });

  test("a recovery code signs in once, typed in any case and spacing", async () => {
    const t = newTest();
    const admin = await enrolledAdmin(t);
    const { username, password } = admin;
    const code = admin.recoveryCodes[3]!;
    const typed = ` ${code.toUpperCase().replace("-", " ")} `;
    expect((await signIn(t, { username, password, code: typed })).tokens?.token).toBeTypeOf(
      "string",
    );
    expect(await errorCode(signIn(t, { username, password, code }))).toBe("INVALID_CODE");
    expect(await admin.as.query(api.twoFactor.status, {})).toEqual({
      enabled: true,
      recoveryCodesLeft: RECOVERY_CODES.count - 1,
    });
  });

  test("after 5 wrong codes even the right one is refused for a while", async () => {
    const t = newTest();
    const admin = await enrolledAdmin(t);
    const { username, password } = admin;
    for (let i = 0; i < RATE_LIMITS.twoFactor.perAccount.max; i++)
      expect(await errorCode(signIn(t, { username, password, code: "999999" }))).toBe(
        "INVALID_CODE",
      );
    expect(await errorCode(signIn(t, { username, password, code: codeFor(admin.key, 1) }))).toBe(
      "TOO_MANY_ATTEMPTS",
    );
  });

  test("an admin without an authenticator still signs in with the password alone", async () => {
    const t = newTest();
    const { username, password } = await newAdmin(t);
    expect((await signIn(t, { username, password })).tokens?.token).toBeTypeOf("string");
  });
});

describe("replacing recovery codes", () => {
  test("a current code gives new codes and the old ones stop working", async () => {
    const t = newTest();
    const admin = await enrolledAdmin(t);
    expect(await admin.as.mutation(api.twoFactor.replaceRecovery, { code: "000000" })).toBeNull();
    const replaced = await admin.as.mutation(api.twoFactor.replaceRecovery, {
      code: codeFor(admin.key, 1),
    });
    expect(replaced!.recoveryCodes).toHaveLength(RECOVERY_CODES.count);
    const { username, password } = admin;
    expect(await errorCode(signIn(t, { username, password, code: admin.recoveryCodes[0] }))).toBe(
      "INVALID_CODE",
    );
    const fresh = await signIn(t, { username, password, code: replaced!.recoveryCodes[0] });
    expect(fresh.tokens?.token).toBeTypeOf("string");
  });

  test("is refused before two-factor is on", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    expect(
      await errorCode(admin.as.mutation(api.twoFactor.replaceRecovery, { code: "123456" })),
    ).toBe("TWO_FACTOR_SETUP_REQUIRED");
  });
});

describe("an admin without two-factor", () => {
  const page = { paginationOpts: { numItems: 5, cursor: null } };

  test("is refused every admin function and any signed-in one, with TWO_FACTOR_SETUP_REQUIRED", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    const refusals = await Promise.all([
      errorCode(admin.as.query(api.admin.stats, {})),
      errorCode(admin.as.query(api.admin.technicians, page)),
      errorCode(
        admin.as.mutation(api.adminAccounts.suspend, { userId: admin.userId, reason: "test" }),
      ),
      errorCode(admin.as.query(api.adminBookings.list, page)),
      errorCode(admin.as.query(api.notifications.list, page)),
      errorCode(admin.as.query(api.devices.list, {})),
      errorCode(
        admin.as.action(api.passwordChange.change, {
          currentPassword: admin.password,
          newPassword: "a brand new password 1",
        }),
      ),
    ]);
    expect(refusals).toEqual(Array(refusals.length).fill("TWO_FACTOR_SETUP_REQUIRED"));
  });

  test("is a visitor to public functions: no professional's phone, as an admin sees it", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    const pro = await insertProfessional(t);
    const contact = async () =>
      (await admin.as.query(api.professionals.get, { professionalId: pro.professionalId }))
        ?.contact ?? null;
    expect(await contact()).toBeNull();
    await enrol(admin);
    expect(await contact()).not.toBeNull();
  });

  test("may read their profile and session, choose a language, name the device and set two-factor up", async () => {
    const t = newTest();
    const admin = await newAdmin(t);
    expect((await admin.as.query(api.users.viewer, {}))?.role).toBe("admin");
    expect(await admin.as.query(api.users.accountStatus, {})).toBe("active");
    expect(await admin.as.query(api.devices.endedSession, {})).toBeNull();
    await admin.as.mutation(api.users.setLanguage, { language: "ne-NP" });
    await admin.as.mutation(api.devices.seen, { userAgent: "Mozilla/5.0 Firefox/130.0" });
    expect(await admin.as.query(api.twoFactor.status, {})).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    await enrol(admin);
    expect((await admin.as.query(api.admin.stats, {})).users.admin).toBe(1);
  });

  test("the setup functions stay an admin's own: others are refused", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    expect(await errorCode(customer.as.mutation(api.twoFactor.begin, {}))).toBe("FORBIDDEN");
    expect(await errorCode(t.query(api.twoFactor.status, {}))).toBe("UNAUTHENTICATED");
  });
});

async function enrol(admin: Awaited<ReturnType<typeof newAdmin>>) {
  const { key } = await admin.as.mutation(api.twoFactor.begin, {});
  await admin.as.mutation(api.twoFactor.confirm, { code: codeFor(key) });
}
