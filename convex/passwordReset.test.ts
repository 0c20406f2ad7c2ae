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
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

async function signUp(t: TestConvex, email: string, phone: string) {
  const params = { ...(await customerSignUp(t, email)), phone };
  const { tokens } = await t.action(api.auth.signIn, { provider: "customer", params });
  const userId = await t.run(async (ctx) => {
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .unique();
    return user!._id;
  });
  return { userId, token: tokens!.token };
}

const signIn = (t: TestConvex, email: string, password: string, provider = "customer") =>
  t.action(api.auth.signIn, { provider, params: { flow: "signIn", email, password } });

const reset = (
  t: TestConvex,
  contact: string,
  code: string,
  newPassword = "new password 1",
  provider = "customer",
) =>
  t.action(api.auth.signIn, {
    provider,
    params: { flow: "reset", contact, code, newPassword },
  });

const sessionsOf = (t: TestConvex, userId: Id<"users">) =>
  t.run((ctx) =>
    ctx.db
      .query("authSessions")
      .withIndex("userId", (q) => q.eq("userId", userId))
      .collect(),
  );

// real password hashing: a few seconds a test on a shared machine
describe("forgot password", { timeout: 30_000 }, () => {
  test("a code by email sets a new password, ends every other session and tells the account", async () => {
    const t = newTest();
    const { userId } = await signUp(t, "sita@example.np", "9841000001");
    await signIn(t, "sita@example.np", "correct horse"); // a second device
    expect(await sessionsOf(t, userId)).toHaveLength(2);

    expect(
      await t.mutation(api.passwordReset.request, {
        role: "customer",
        contact: " Sita@Example.NP ",
      }),
    ).toBeNull();
    const [codeMessage] = await outbox(t);
    expect(codeMessage).toMatchObject({ channel: "email", to: "sita@example.np" });
    const code = codeIn(codeMessage)!;

    const result = await reset(t, "sita@example.np", code);
    expect(result.tokens?.token).toBeTypeOf("string");
    const sessions = await sessionsOf(t, userId);
    expect(sessions).toHaveLength(1); // only the one the reset just signed in

    expect(await errorCode(signIn(t, "sita@example.np", "correct horse"))).toBe(
      "INVALID_CREDENTIALS",
    );
    expect((await signIn(t, "sita@example.np", "new password 1")).tokens).not.toBeNull();
    const notice = (await outbox(t)).at(-1);
    expect(notice).toMatchObject({
      channel: "email",
      to: "sita@example.np",
      subject: "Your GharSewa password was changed",
    });
    // single use
    expect(await errorCode(reset(t, "sita@example.np", code, "third password"))).toBe(
      "INVALID_CODE",
    );
  });

  test("a Nepali mobile number gets its code by SMS, in the account's language", async () => {
    const t = newTest();
    const { userId } = await signUp(t, "hari@example.np", "9841000002");
    await t.run((ctx) => ctx.db.patch("users", userId, { language: "ne-NP" }));
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "+977 984-1000002" });
    const [sms] = await outbox(t);
    expect(sms).toMatchObject({ channel: "sms", to: "9841000002" });
    expect(sms!.text).toContain("घर सेवा");
    await reset(t, "9841000002", codeIn(sms)!);
    expect((await signIn(t, "hari@example.np", "new password 1")).tokens).not.toBeNull();
  });

  test("the code and the changed notice come in the asking page's language", async () => {
    const t = newTest();
    await signUp(t, "gita@example.np", "9841000003"); // no language chosen on the account
    await t.mutation(api.passwordReset.request, {
      role: "customer",
      contact: "gita@example.np",
      language: "ne-NP",
    });
    const [codeMessage] = await outbox(t);
    expect(codeMessage!.subject).toBe("घर सेवा पासवर्ड रिसेट कोड");
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: {
        flow: "reset",
        contact: "gita@example.np",
        code: codeIn(codeMessage)!,
        newPassword: "new password 1",
        language: "ne-NP",
      },
    });
    expect((await outbox(t)).at(-1)!.subject).toBe("तपाईंको घर सेवा पासवर्ड परिवर्तन भयो");
  });

  test("an address with no account gets the same answer and no message", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    expect(
      await t.mutation(api.passwordReset.request, {
        role: "customer",
        contact: "nobody@example.np",
      }),
    ).toBeNull();
    // the customer's address asked about as a professional's
    expect(
      await t.mutation(api.passwordReset.request, {
        role: "professional",
        contact: "sita@example.np",
      }),
    ).toBeNull();
    expect(await outbox(t)).toEqual([]);
    expect(await t.run((ctx) => ctx.db.query("accountCodes").collect())).toEqual([]);
    expect(await errorCode(reset(t, "nobody@example.np", "123456"))).toBe("INVALID_CODE");
  });

  test("five wrong codes end the attempt, even if the right one comes next", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "sita@example.np" });
    const code = codeIn((await outbox(t))[0])!;
    const wrong = code === "000000" ? "000001" : "000000";
    for (let i = 0; i < ACCOUNT_CODE.attempts; i++)
      expect(await errorCode(reset(t, "sita@example.np", wrong))).toBe("INVALID_CODE");
    expect(await errorCode(reset(t, "sita@example.np", code))).toBe("INVALID_CODE");
    expect((await signIn(t, "sita@example.np", "correct horse")).tokens).not.toBeNull();
  });

  test("a code older than 15 minutes is refused", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "sita@example.np" });
    const code = codeIn((await outbox(t))[0])!;
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("accountCodes").first())!;
      await ctx.db.patch("accountCodes", row._id, { expiresAt: Date.now() - 1 });
    });
    expect(await errorCode(reset(t, "sita@example.np", code))).toBe("INVALID_CODE");
  });

  test("a new code replaces the last one", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "sita@example.np" });
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "sita@example.np" });
    const [first, second] = (await outbox(t)).map(codeIn);
    if (first !== second)
      expect(await errorCode(reset(t, "sita@example.np", first!))).toBe("INVALID_CODE");
    expect((await reset(t, "sita@example.np", second!)).tokens).not.toBeNull();
  });

  test("an address may ask a few times an hour, whether or not it has an account", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    for (const contact of ["sita@example.np", "nobody@example.np"]) {
      for (let i = 0; i < RATE_LIMITS.accountCode.perAddress.max; i++)
        await t.mutation(api.passwordReset.request, { role: "customer", contact });
      expect(
        await errorCode(t.mutation(api.passwordReset.request, { role: "customer", contact })),
      ).toBe("RATE_LIMITED");
    }
  });

  test("an account gets at most 5 codes a day, however its addresses are asked", async () => {
    const t = newTest();
    await signUp(t, "sita@example.np", "9841000001");
    for (const contact of ["sita@example.np", "9841000001"])
      for (let i = 0; i < 3; i++)
        expect(
          await t.mutation(api.passwordReset.request, { role: "customer", contact }),
        ).toBeNull();
    expect(await outbox(t)).toHaveLength(RATE_LIMITS.accountCode.perAccount.max);
  });

  test("a professional resets through the professional provider only", async () => {
    const t = newTest();
    const params = { ...(await professionalSignUp(t, "ram@example.np")), phone: "9841000003" };
    await t.action(api.auth.signIn, { provider: "professional", params });
    await t.mutation(api.passwordReset.request, {
      role: "professional",
      contact: "ram@example.np",
    });
    const code = codeIn((await outbox(t))[0])!;
    expect(await errorCode(reset(t, "ram@example.np", code, "new password 1", "customer"))).toBe(
      "INVALID_CODE",
    );
    await reset(t, "ram@example.np", code, "new password 1", "professional");
    expect(
      (await signIn(t, "ram@example.np", "new password 1", "professional")).tokens,
    ).not.toBeNull();
  });

  test("a suspended account gets no code; admins have no reset flow", async () => {
    const t = newTest();
    const { userId } = await signUp(t, "sita@example.np", "9841000001");
    await t.run((ctx) =>
      ctx.db.patch("users", userId, { suspended: { at: Date.now(), by: userId, reason: "x" } }),
    );
    await t.mutation(api.passwordReset.request, { role: "customer", contact: "sita@example.np" });
    expect(await outbox(t)).toEqual([]);
    expect(await errorCode(reset(t, "admin", "123456", "new password 1", "admin"))).toBe(
      "UNSUPPORTED_FLOW",
    );
  });

  test("what is not an email or a Nepali mobile, and a too-short password, are refused", async () => {
    const t = newTest();
    for (const contact of ["", "01-4123456", "x".repeat(300), "not an address"])
      expect(
        await errorCode(t.mutation(api.passwordReset.request, { role: "customer", contact })),
      ).toBe("INVALID_INPUT");
    expect(await errorCode(reset(t, "sita@example.np", "123456", "short"))).toBe("INVALID_INPUT");
  });
});
