import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { errorCode, insertAdmin, insertCustomer, insertProfessional, newTest } from "./test.setup";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test("heartbeat puts users online; a missed heartbeat takes them offline after 70 s", async () => {
  const t = newTest();
  const admin = await insertAdmin(t);
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  await customer.as.mutation(api.presence.heartbeat, {});
  await pro.as.mutation(api.presence.heartbeat, {});
  expect((await admin.as.query(api.presence.online, {})).map((u) => u.role).sort()).toEqual([
    "customer",
    "professional",
  ]);

  // The professional keeps beating; the customer closes the tab.
  vi.advanceTimersByTime(30_000);
  await pro.as.mutation(api.presence.heartbeat, {});
  vi.advanceTimersByTime(30_000);
  await pro.as.mutation(api.presence.heartbeat, {});
  vi.advanceTimersByTime(15_000);
  await t.finishInProgressScheduledFunctions();
  expect(await admin.as.query(api.presence.online, {})).toEqual([
    { userId: pro.userId, name: "Ram Thapa", role: "professional" },
  ]);
});

test("heartbeat needs a signed-in user; online is for admins", async () => {
  const t = newTest();
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  expect(await errorCode(t.mutation(api.presence.heartbeat, {}))).toBe("UNAUTHENTICATED");
  expect(await errorCode(t.query(api.presence.online, {}))).toBe("UNAUTHENTICATED");
  expect(await errorCode(customer.as.query(api.presence.online, {}))).toBe("FORBIDDEN");
  expect(await errorCode(pro.as.query(api.presence.online, {}))).toBe("FORBIDDEN");
});

test("signing out takes a professional offline and off the public map at once", async () => {
  const t = newTest();
  const admin = await insertAdmin(t);
  const pro = await insertProfessional(t);
  await pro.as.mutation(api.presence.heartbeat, {});
  await pro.as.mutation(api.locations.update, { longitude: 81.6, latitude: 28.05 });
  expect(await t.query(api.locations.onMap, {})).toHaveLength(1);
  expect(await admin.as.query(api.presence.online, {})).toHaveLength(1);

  await pro.as.mutation(api.presence.leave, {});
  expect(await admin.as.query(api.presence.online, {})).toEqual([]);
  expect(await t.query(api.locations.onMap, {})).toEqual([]);
  expect(await errorCode(t.mutation(api.presence.leave, {}))).toBe("UNAUTHENTICATED");
});

test("a missed heartbeat takes a professional off the public map too", async () => {
  const t = newTest();
  const pro = await insertProfessional(t);
  await pro.as.mutation(api.presence.heartbeat, {});
  await pro.as.mutation(api.locations.update, { longitude: 81.6, latitude: 28.05 });
  vi.advanceTimersByTime(75_000);
  await t.finishInProgressScheduledFunctions();
  expect(await t.query(api.locations.onMap, {})).toEqual([]);
});
