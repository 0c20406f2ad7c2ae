import { beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { RATE_LIMITS } from "./rules/limits";
import {
  customerSignUp,
  errorCode,
  insertCustomer,
  newTest,
  outbox,
  useAuthEnv,
  withSession,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

const EMAIL = "sita@example.np";
const PASSWORD = "correct horse";

/** A customer signed up with a password, signed in on two devices: `here` and `there`. */
async function customerOnTwoDevices(t: TestConvex) {
  const params = { ...(await customerSignUp(t, EMAIL)), phone: "9841000011" };
  await t.action(api.auth.signIn, { provider: "customer", params });
  await signIn(t, PASSWORD);
  const sessions = await t.run((ctx) => ctx.db.query("authSessions").collect());
  const userId = sessions[0]!.userId;
  const as = (sessionId: Id<"authSessions">) =>
    t.withIdentity({ subject: `${userId}|${sessionId}` });
  return {
    userId,
    here: { sessionId: sessions[0]!._id, as: as(sessions[0]!._id) },
    there: { sessionId: sessions[1]!._id, as: as(sessions[1]!._id) },
  };
}

const signIn = (t: TestConvex, password: string) =>
  t.action(api.auth.signIn, {
    provider: "customer",
    params: { flow: "signIn", email: EMAIL, password },
  });

const sessionIds = (t: TestConvex) =>
  t.run(async (ctx) => (await ctx.db.query("authSessions").collect()).map((s) => s._id));

// real password hashing: a few seconds a test on a shared machine
describe("change password", { timeout: 60_000 }, () => {
  test("the current password sets a new one; this device stays, the others are signed out and the account is told", async () => {
    const t = newTest();
    const { here, there } = await customerOnTwoDevices(t);
    expect(
      await here.as.action(api.passwordChange.change, {
        currentPassword: PASSWORD,
        newPassword: "new password 2",
      }),
    ).toBeNull();
    expect(await sessionIds(t)).toEqual([here.sessionId]);
    expect(await there.as.query(api.users.viewer, {})).toBeNull();
    expect(await errorCode(signIn(t, PASSWORD))).toBe("INVALID_CREDENTIALS");
    expect((await signIn(t, "new password 2")).tokens).not.toBeNull();
    expect((await outbox(t)).at(-1)).toMatchObject({
      channel: "email",
      to: EMAIL,
      subject: "Your GharSewa password was changed",
    });
  });

  // eleven password checks: ~16 s on an idle machine, a minute or more on a busy one
  test(
    "a wrong current password changes nothing and counts as a sign-in try",
    { timeout: 240_000 },
    async () => {
      const t = newTest();
      const { here, there } = await customerOnTwoDevices(t);
      const wrong = () =>
        here.as.action(api.passwordChange.change, {
          currentPassword: "not my password",
          newPassword: "new password 2",
        });
      expect(await errorCode(wrong())).toBe("WRONG_PASSWORD");
      expect(await sessionIds(t)).toEqual([here.sessionId, there.sessionId]);
      expect(await outbox(t)).toEqual([]);
      for (let i = 1; i < RATE_LIMITS.signIn.perAccount.max; i++) await errorCode(wrong());
      // the allowance is the sign-in form's: used up, even the right password waits
      expect(await errorCode(wrong())).toBe("TOO_MANY_ATTEMPTS");
      expect(await errorCode(signIn(t, PASSWORD))).toBe("TOO_MANY_ATTEMPTS");
    },
  );

  test("a new password must follow the password rule", async () => {
    const t = newTest();
    const { here } = await customerOnTwoDevices(t);
    expect(
      await errorCode(
        here.as.action(api.passwordChange.change, {
          currentPassword: PASSWORD,
          newPassword: "short",
        }),
      ),
    ).toBe("INVALID_INPUT");
  });

  test("a visitor, an ended session and a suspended account are refused", async () => {
    const t = newTest();
    const { userId, here, there } = await customerOnTwoDevices(t);
    const args = { currentPassword: PASSWORD, newPassword: "new password 2" };
    expect(await errorCode(t.action(api.passwordChange.change, args))).toBe("UNAUTHENTICATED");
    await t.run((ctx) => ctx.db.delete("authSessions", there.sessionId));
    expect(await errorCode(there.as.action(api.passwordChange.change, args))).toBe(
      "UNAUTHENTICATED",
    );
    await t.run((ctx) =>
      ctx.db.patch("users", userId, {
        suspended: { at: Date.now(), by: userId, reason: "test" },
      }),
    );
    expect(await errorCode(here.as.action(api.passwordChange.change, args))).toBe(
      "UNAUTHENTICATED",
    );
  });

  test("an account without a password has none to change", async () => {
    const t = newTest();
    const { userId } = await insertCustomer(t);
    const { as } = await withSession(t, userId);
    expect(
      await errorCode(
        as.action(api.passwordChange.change, {
          currentPassword: PASSWORD,
          newPassword: "new password 2",
        }),
      ),
    ).toBe("NOT_FOUND");
  });
});
