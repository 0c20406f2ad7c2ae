import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { customerSignUp, errorCode, insertCustomer, newTest, useAuthEnv } from "./test.setup";

const profile = {
  name: "Sita Sharma",
  phone: "9801234567",
  address: "Ward 5, Lalitpur",
  zipCode: "44700",
};

describe("the viewer of every builder needs a live auth session", () => {
  test("a token whose session was deleted is a visitor: null from users:viewer, refused by user and role builders", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    expect((await customer.as.query(api.users.viewer, {}))?._id).toBe(customer.userId);
    await t.run((ctx) => ctx.db.delete("authSessions", customer.sessionId));

    expect(await customer.as.query(api.users.viewer, {})).toBeNull();
    expect(await errorCode(customer.as.mutation(api.users.updateProfile, profile))).toBe(
      "UNAUTHENTICATED",
    );
    const page = { paginationOpts: { numItems: 5, cursor: null } };
    expect(await errorCode(customer.as.query(api.bookings.forCustomer, page))).toBe(
      "UNAUTHENTICATED",
    );
  });

  test("a token naming no session of ours is refused", async () => {
    const t = newTest();
    const { userId } = await insertCustomer(t);
    const forged = t.withIdentity({ subject: `${userId}|not-a-session` });
    expect(await forged.query(api.users.viewer, {})).toBeNull();
    expect(await errorCode(forged.mutation(api.users.updateProfile, profile))).toBe(
      "UNAUTHENTICATED",
    );
  });

  test("auth:signOut ends the token's use at once (not when the JWT expires)", async () => {
    await useAuthEnv();
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "out@example.np"),
    });
    const session = await t.run(async (ctx) => (await ctx.db.query("authSessions").take(1))[0]);
    const as = t.withIdentity({ subject: `${session.userId}|${session._id}` });
    expect((await as.query(api.users.viewer, {}))?.email).toBe("out@example.np");

    await as.action(api.auth.signOut, {});

    expect(await as.query(api.users.viewer, {})).toBeNull();
    expect(await errorCode(as.mutation(api.users.updateProfile, profile))).toBe("UNAUTHENTICATED");
  });
});
