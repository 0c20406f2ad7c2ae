import { beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { ACCOUNT_CODE } from "./rules/accountCodes";
import { RATE_LIMITS } from "./rules/limits";
import {
  codeIn,
  customerSignUp,
  errorCode,
  newTest,
  outbox,
  professionalSignUp,
  useAuthEnv,
  withSession,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

const PHONE = "9841000001";

/** A customer (or professional) signed up with `phone`, verified unless told otherwise. */
async function signUp(
  t: TestConvex,
  {
    role = "customer",
    verified = true,
  }: { role?: "customer" | "professional"; verified?: boolean } = {},
) {
  const email = `${role}@example.np`;
  const base =
    role === "customer" ? await customerSignUp(t, email) : await professionalSignUp(t, email);
  await t.action(api.auth.signIn, { provider: role, params: { ...base, phone: PHONE } });
  return await t.run(async (ctx) => {
    const user = (await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .unique())!;
    if (verified) await ctx.db.patch("users", user._id, { phoneVerificationTime: Date.now() });
    return user._id;
  });
}

const ask = (t: TestConvex, phone = PHONE, role: "customer" | "professional" = "customer") =>
  t.mutation(api.signInCodes.request, { role, phone });

const signInWith = (t: TestConvex, code: string, provider = "customer", phone = PHONE) =>
  t.action(api.auth.signIn, { provider, params: { flow: "code", phone, code } });

const sessionUser = (t: TestConvex, userId: Id<"users">) =>
  t.run((ctx) =>
    ctx.db
      .query("authSessions")
      .withIndex("userId", (q) => q.eq("userId", userId))
      .collect(),
  );

describe("signing in by a code sent by SMS", () => {
  test("a customer with a verified phone signs in by the code; it works once", async () => {
    const t = newTest();
    const userId = await signUp(t);
    const before = (await sessionUser(t, userId)).length;
    expect(await ask(t, "+977 984-1000001")).toBeNull();
    const [sms] = await outbox(t);
    expect(sms).toMatchObject({ channel: "sms", to: PHONE });
    const code = codeIn(sms)!;
    const { tokens } = await signInWith(t, code);
    expect(tokens).not.toBeNull();
    expect(await sessionUser(t, userId)).toHaveLength(before + 1);
    expect(await errorCode(signInWith(t, code))).toBe("INVALID_CODE");
  });

  test("a professional signs in through the professional provider only", async () => {
    const t = newTest();
    await signUp(t, { role: "professional" });
    await ask(t, PHONE, "professional");
    const code = codeIn((await outbox(t))[0])!;
    expect(await errorCode(signInWith(t, code, "customer"))).toBe("INVALID_CODE");
    expect((await signInWith(t, code, "professional")).tokens).not.toBeNull();
    expect(await errorCode(signInWith(t, code, "admin"))).toBe("UNSUPPORTED_FLOW");
  });

  test("an unverified phone, an unknown number, another role's number: same answer, no SMS", async () => {
    const t = newTest();
    await signUp(t, { verified: false });
    expect(await ask(t)).toBeNull();
    expect(await ask(t, "9841999999")).toBeNull();
    expect(await ask(t, PHONE, "professional")).toBeNull();
    expect(await outbox(t)).toEqual([]);
    expect(await t.run((ctx) => ctx.db.query("accountCodes").collect())).toEqual([]);
    expect(await errorCode(signInWith(t, "123456"))).toBe("INVALID_CODE");
  });

  test("five wrong codes end it, even if the right one comes next", async () => {
    const t = newTest();
    await signUp(t);
    await ask(t);
    const code = codeIn((await outbox(t))[0])!;
    const wrong = code === "000000" ? "000001" : "000000";
    for (let i = 0; i < ACCOUNT_CODE.attempts; i++)
      expect(await errorCode(signInWith(t, wrong))).toBe("INVALID_CODE");
    expect(await errorCode(signInWith(t, code))).toBe("INVALID_CODE");
  });

  test("a code older than 15 minutes is refused", async () => {
    const t = newTest();
    await signUp(t);
    await ask(t);
    const code = codeIn((await outbox(t))[0])!;
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("accountCodes").first())!;
      expect(row.expiresAt - Date.now()).toBeLessThanOrEqual(ACCOUNT_CODE.lifetimeMs);
      await ctx.db.patch("accountCodes", row._id, { expiresAt: Date.now() - 1 });
    });
    expect(await errorCode(signInWith(t, code))).toBe("INVALID_CODE");
  });

  test("a number may ask a few times an hour, whether or not it has an account", async () => {
    const t = newTest();
    await signUp(t);
    for (const phone of [PHONE, "9841999999"]) {
      for (let i = 0; i < RATE_LIMITS.accountCode.perAddress.max; i++) await ask(t, phone);
      expect(await errorCode(ask(t, phone))).toBe("RATE_LIMITED");
    }
    expect(await outbox(t)).toHaveLength(RATE_LIMITS.accountCode.perAccount.max);
  });

  test("a suspended account gets no code; a code asked for before the suspension fails", async () => {
    const t = newTest();
    const userId = await signUp(t);
    await ask(t);
    const code = codeIn((await outbox(t))[0])!;
    await t.run((ctx) =>
      ctx.db.patch("users", userId, { suspended: { at: Date.now(), by: userId, reason: "x" } }),
    );
    expect(await errorCode(signInWith(t, code))).toBe("INVALID_CODE");
    await ask(t);
    expect(await outbox(t)).toHaveLength(1);
  });

  test("changing the phone number ends its sign-in code, even once the new one is verified", async () => {
    const t = newTest();
    const userId = await signUp(t);
    await ask(t);
    const code = codeIn((await outbox(t))[0])!;
    const { as } = await withSession(t, userId);
    const profile = { name: "Sita Sharma", address: "Ward 4, Baneshwor", zipCode: "44600" };
    await as.mutation(api.users.updateProfile, { ...profile, phone: "9841000002" });
    expect(await as.query(api.users.viewer, {})).toMatchObject({ phoneVerified: false });
    expect(await errorCode(signInWith(t, code))).toBe("INVALID_CODE");
    await t.run((ctx) => ctx.db.patch("users", userId, { phoneVerificationTime: Date.now() }));
    expect(await errorCode(signInWith(t, code, "customer", "9841000002"))).toBe("INVALID_CODE");
  });

  test("what is not a Nepali mobile number is refused", async () => {
    const t = newTest();
    for (const phone of ["", "01-4123456", "9".repeat(300), "someone@example.np"])
      expect(await errorCode(ask(t, phone))).toBe("INVALID_INPUT");
  });
});
