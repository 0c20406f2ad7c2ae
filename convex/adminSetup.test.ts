import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { ADMIN_SETUP } from "./rules/adminSetup";
import { RATE_LIMITS } from "./rules/limits";
import {
  customerSignUp,
  errorCode,
  markTwoFactorOn,
  newTest,
  useAuthEnv,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);
afterEach(() => {
  vi.useRealTimers();
});

const NEW_PASSWORD = "a brand new admin password";

const setUp = (t: TestConvex, setupToken: string, newPassword = NEW_PASSWORD) =>
  t.action(api.auth.signIn, {
    provider: "admin",
    params: { flow: "setup", setupToken, newPassword },
  });

const signIn = (t: TestConvex, username: string, password: string) =>
  t.action(api.auth.signIn, { provider: "admin", params: { flow: "signIn", username, password } });

async function adminId(t: TestConvex, username: string): Promise<Id<"users">> {
  return await t.run(async (ctx) => {
    const user = await ctx.db
      .query("users")
      .withIndex("by_username", (q) => q.eq("username", username))
      .unique();
    return user!._id;
  });
}

const storedHashes = (t: TestConvex) =>
  t.run(async (ctx) => (await ctx.db.query("adminSetupTokens").collect()).map((r) => r.tokenHash));

// real password hashing: a few seconds a test on a shared machine
describe("admin setup links", { timeout: 60_000 }, () => {
  test("a new admin's link sets the password and signs in, with two-factor still to set up", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    expect(await storedHashes(t)).not.toContain(setupToken);
    const { tokens } = await setUp(t, setupToken);
    expect(tokens?.token).toBeTruthy();
    // the new password signs in; the admin has no authenticator yet, so no code is asked
    expect((await signIn(t, "ops", NEW_PASSWORD)).tokens?.token).toBeTruthy();
    expect(await storedHashes(t)).toEqual([]);
  });

  test("a link works once", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    await setUp(t, setupToken);
    expect(await errorCode(setUp(t, setupToken, "another new password"))).toBe(
      "INVALID_SETUP_LINK",
    );
    expect(await errorCode(signIn(t, "ops", "another new password"))).toBe("INVALID_CREDENTIALS");
  });

  test("an expired link is refused", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + ADMIN_SETUP.lifetimeMs + 1);
    expect(await errorCode(setUp(t, setupToken))).toBe("INVALID_SETUP_LINK");
    expect(await storedHashes(t)).toEqual([]);
  });

  test("a wrong or malformed token is refused, and guessing is limited", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    const wrong = setupToken.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(await errorCode(setUp(t, wrong))).toBe("INVALID_SETUP_LINK");
    expect(await errorCode(setUp(t, "not a token"))).toBe("INVALID_SETUP_LINK");
    for (let i = 2; i < RATE_LIMITS.adminSetup.everyone.max; i++)
      await setUp(t, wrong).catch(() => {});
    // the ceiling is reached: even the right link waits for the window
    expect(await errorCode(setUp(t, setupToken))).toBe("RATE_LIMITED");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + RATE_LIMITS.adminSetup.everyone.windowMs + 1);
    expect((await setUp(t, setupToken)).tokens?.token).toBeTruthy();
  });

  test("a weak new password is refused without spending the link", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    expect(await errorCode(setUp(t, setupToken, "short"))).toBe("INVALID_INPUT");
    expect((await setUp(t, setupToken)).tokens?.token).toBeTruthy();
  });

  test("re-issuing for an existing admin replaces the old link and resets two-factor", async () => {
    const t = newTest();
    const { setupToken: first } = await t.action(internal.admin.createAdmin, { username: "ops" });
    const userId = await adminId(t, "ops");
    await markTwoFactorOn(t, userId);
    const second = await t.mutation(internal.adminSetup.issue, { username: "OPS" });
    expect(second).toMatch(/^[0-9a-f]{64}$/);
    expect(await errorCode(setUp(t, first))).toBe("INVALID_SETUP_LINK");
    await setUp(t, second!);
    const enrolment = await t.run((ctx) =>
      ctx.db
        .query("twoFactor")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .unique(),
    );
    expect(enrolment).toBeNull();
  });

  test("links are issued for admins only, and only the admin provider redeems them", async () => {
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "sita@example.np"),
    });
    expect(await t.mutation(internal.adminSetup.issue, { username: "nobody" })).toBeNull();
    await t.run(async (ctx) => {
      const user = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "sita@example.np"))
        .unique();
      await ctx.db.patch("users", user!._id, { username: "sita" });
    });
    expect(await errorCode(t.mutation(internal.adminSetup.issue, { username: "sita" }))).toBe(
      "FORBIDDEN",
    );
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    expect(
      await errorCode(
        t.action(api.auth.signIn, {
          provider: "customer",
          params: { flow: "setup", setupToken, newPassword: NEW_PASSWORD },
        }),
      ),
    ).toBe("UNSUPPORTED_FLOW");
  });

  test("a link of an admin suspended since is refused", async () => {
    const t = newTest();
    const { setupToken } = await t.action(internal.admin.createAdmin, { username: "ops" });
    const userId = await adminId(t, "ops");
    await t.run((ctx) =>
      ctx.db.patch("users", userId, { suspended: { at: Date.now(), by: userId, reason: "left" } }),
    );
    expect(await errorCode(setUp(t, setupToken))).toBe("INVALID_SETUP_LINK");
  });
});
