import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { USER_AGENT_MAX } from "./rules/userAgent";
import { errorCode, insertCustomer, newTest, withSession } from "./test.setup";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
const WINDOWS_FIREFOX =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

describe("devices", () => {
  test("a device learns that its session ended elsewhere; a live session, a visitor and a suspended account learn nothing", async () => {
    const t = newTest();
    const { userId, sessionId, as } = await insertCustomer(t);
    const other = await withSession(t, userId);
    expect(await t.query(api.devices.endedSession, {})).toBeNull();
    expect(await as.query(api.devices.endedSession, {})).toBeNull();

    await t.run((ctx) => ctx.db.delete("authSessions", sessionId));
    expect(await as.query(api.devices.endedSession, {})).toBe(sessionId);
    expect(await other.as.query(api.devices.endedSession, {})).toBeNull();

    await t.run(async (ctx) => {
      await ctx.db.patch("users", userId, {
        suspended: { at: Date.now(), by: userId, reason: "test" },
      });
    });
    expect(await as.query(api.devices.endedSession, {})).toBeNull();
  });

  test("the list names each signed-in browser, this one first and marked", async () => {
    const t = newTest();
    const { userId, sessionId, as } = await insertCustomer(t);
    const laptop = await withSession(t, userId);
    const unnamed = await withSession(t, userId);
    await as.mutation(api.devices.seen, { userAgent: ANDROID_CHROME });
    await laptop.as.mutation(api.devices.seen, { userAgent: WINDOWS_FIREFOX });

    const list = await as.query(api.devices.list, {});
    const row = (d: (typeof list)[number]) => [d.browser, d.system, d.current];
    expect(list).toHaveLength(3);
    expect(list[0]!.sessionId).toBe(sessionId);
    expect(row(list[0]!)).toEqual(["Chrome", "Android", true]);
    const others = new Map(list.slice(1).map((d) => [d.sessionId, row(d)]));
    expect(others.get(laptop.sessionId)).toEqual(["Firefox", "Windows", false]);
    expect(others.get(unnamed.sessionId)).toEqual([null, null, false]);
    // another account's devices are not in it
    const stranger = await insertCustomer(t, "Other Person");
    expect(await stranger.as.query(api.devices.list, {})).toHaveLength(1);
  });

  test("a long user agent is cut; last seen moves at most once a minute", async () => {
    const t = newTest();
    const { as } = await insertCustomer(t);
    await as.mutation(api.devices.seen, { userAgent: "x".repeat(10_000) });
    await as.mutation(api.devices.seen, { userAgent: "x".repeat(10_000) });
    const rows = await t.run((ctx) => ctx.db.query("sessionDevices").collect());
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userAgent).toHaveLength(USER_AGENT_MAX);
  });

  test("signing out another device ends its session, refresh tokens and device row; its queries answer as to a visitor", async () => {
    const t = newTest();
    const { userId, sessionId, as } = await insertCustomer(t);
    const laptop = await withSession(t, userId);
    await laptop.as.mutation(api.devices.seen, { userAgent: WINDOWS_FIREFOX });
    await t.run((ctx) =>
      ctx.db.insert("authRefreshTokens", {
        sessionId: laptop.sessionId,
        expirationTime: Date.now() + 60_000,
      }),
    );

    await as.mutation(api.devices.signOut, { sessionId: laptop.sessionId });
    expect(await laptop.as.query(api.users.viewer, {})).toBeNull();
    expect(await laptop.as.query(api.devices.endedSession, {})).toBe(laptop.sessionId);
    const left = await t.run(async (ctx) => ({
      tokens: await ctx.db.query("authRefreshTokens").collect(),
      devices: await ctx.db.query("sessionDevices").collect(),
    }));
    expect(left).toEqual({ tokens: [], devices: [] });
    expect((await as.query(api.devices.list, {})).map((d) => d.sessionId)).toEqual([sessionId]);
  });

  test("this device signs out with Logout, not from the list", async () => {
    const t = newTest();
    const { sessionId, as } = await insertCustomer(t);
    expect(await errorCode(as.mutation(api.devices.signOut, { sessionId }))).toBe("INVALID_INPUT");
  });

  test("another account's session is left alone", async () => {
    const t = newTest();
    const { as } = await insertCustomer(t);
    const stranger = await insertCustomer(t, "Other Person");
    await as.mutation(api.devices.signOut, { sessionId: stranger.sessionId });
    expect(await stranger.as.query(api.users.viewer, {})).not.toBeNull();
    await as.mutation(api.devices.signOutOthers, {});
    expect(await stranger.as.query(api.users.viewer, {})).not.toBeNull();
  });

  test("signing out all others keeps this device only", async () => {
    const t = newTest();
    const { userId, sessionId, as } = await insertCustomer(t);
    const others = [await withSession(t, userId), await withSession(t, userId)];
    await as.mutation(api.devices.signOutOthers, {});
    for (const other of others) expect(await other.as.query(api.users.viewer, {})).toBeNull();
    expect((await as.query(api.devices.list, {})).map((d) => d.sessionId)).toEqual([sessionId]);
  });

  test("visitors are refused", async () => {
    const t = newTest();
    const { sessionId } = await insertCustomer(t);
    expect(await errorCode(t.query(api.devices.list, {}))).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.mutation(api.devices.seen, { userAgent: "x" }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await errorCode(t.mutation(api.devices.signOut, { sessionId }))).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.mutation(api.devices.signOutOthers, {}))).toBe("UNAUTHENTICATED");
  });
});
