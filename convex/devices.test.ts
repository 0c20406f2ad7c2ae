import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { insertCustomer, newTest, withSession } from "./test.setup";

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
});
