import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "../_generated/api";
import { errorCode, errorMessage, insertCustomer, newTest } from "../test.setup";
import { LIMITS, WINDOW_MS } from "./rateLimit";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const message = { name: "Maya Rai", email: "maya@example.np", message: "Do you serve Butwal?" };

describe("contact:send", () => {
  test("a signed-in user gets their own allowance per minute; others are not affected", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    const hari = await insertCustomer(t, "Hari Bahadur");
    for (let i = 0; i < LIMITS.contact.perUser; i++) await sita.as.mutation(api.contact.send, message);

    expect(await errorMessage(sita.as.mutation(api.contact.send, message))).toBe(
      "Too many requests, please try again in a minute.",
    );
    await hari.as.mutation(api.contact.send, message);
    await t.mutation(api.contact.send, message);

    vi.advanceTimersByTime(WINDOW_MS);
    await sita.as.mutation(api.contact.send, message);
    const stored = await t.run((ctx) => ctx.db.query("contactMessages").collect());
    expect(stored.filter((m) => m.userId === sita.userId)).toHaveLength(LIMITS.contact.perUser + 1);
  });

  test("visitors share one allowance, which does not limit signed-in users; refused messages are not stored", async () => {
    const t = newTest();
    for (let i = 0; i < LIMITS.contact.visitors; i++) await t.mutation(api.contact.send, message);
    expect(await errorCode(t.mutation(api.contact.send, message))).toBe("RATE_LIMITED");
    const sita = await insertCustomer(t);
    await sita.as.mutation(api.contact.send, message);
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(LIMITS.contact.visitors + 1);
  });

  test("a message refused as invalid does not count", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    for (let i = 0; i < LIMITS.contact.perUser; i++) {
      expect(await errorCode(sita.as.mutation(api.contact.send, { ...message, email: "maya" }))).toBe("INVALID_INPUT");
    }
    await sita.as.mutation(api.contact.send, message);
  });
});

describe("files:generateUploadUrl", () => {
  test(`visitors together may start ${LIMITS.upload.visitors / 4} four-file sign-ups a minute`, async () => {
    const t = newTest();
    for (let i = 0; i < LIMITS.upload.visitors; i++) await t.mutation(api.files.generateUploadUrl, {});
    expect(await errorCode(t.mutation(api.files.generateUploadUrl, {}))).toBe("RATE_LIMITED");

    const sita = await insertCustomer(t);
    expect(await sita.as.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);
    vi.advanceTimersByTime(WINDOW_MS);
    expect(await t.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);
  });

  test("a signed-in user is limited on their own", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    for (let i = 0; i < LIMITS.upload.perUser; i++) await sita.as.mutation(api.files.generateUploadUrl, {});
    expect(await errorCode(sita.as.mutation(api.files.generateUploadUrl, {}))).toBe("RATE_LIMITED");
    expect(await t.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);
  });
});
