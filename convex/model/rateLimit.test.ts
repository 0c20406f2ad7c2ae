import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api } from "../_generated/api";
import {
  customerSignUp,
  errorCode,
  errorMessage,
  insertCustomer,
  newTest,
  signUpDraft,
  useAuthEnv,
  type TestConvex,
} from "../test.setup";
import { DRAFT_LIMITS, RATE_LIMITS } from "./rateLimit";

beforeAll(useAuthEnv);
afterEach(() => {
  vi.useRealTimers();
});

/** Only Date is faked: sign-up's password hashing still runs on real timers. */
function fakeClock() {
  vi.useFakeTimers({ toFake: ["Date"] });
}

const message = { name: "Maya Rai", email: "maya@example.np", message: "Do you serve Butwal?" };

const signUp = (t: TestConvex, params: Record<string, unknown>) =>
  t.action(api.auth.signIn, { provider: "customer", params });

const users = (t: TestConvex) =>
  t.run(async (ctx) => (await ctx.db.query("users").collect()).length);

describe("contact:send", () => {
  test("a signed-in user gets their own allowance per minute; others are not affected", async () => {
    fakeClock();
    const t = newTest();
    const sita = await insertCustomer(t);
    const hari = await insertCustomer(t, "Hari Bahadur");
    for (let i = 0; i < RATE_LIMITS.contact.perUser.max; i++)
      await sita.as.mutation(api.contact.send, message);

    expect(await errorMessage(sita.as.mutation(api.contact.send, message))).toBe(
      "Too many messages, please try again in 60 seconds.",
    );
    await hari.as.mutation(api.contact.send, message);
    await t.mutation(api.contact.send, message);

    vi.setSystemTime(Date.now() + RATE_LIMITS.contact.perUser.windowMs);
    await sita.as.mutation(api.contact.send, message);
    const stored = await t.run((ctx) => ctx.db.query("contactMessages").collect());
    expect(stored.filter((m) => m.userId === sita.userId)).toHaveLength(
      RATE_LIMITS.contact.perUser.max + 1,
    );
  });

  test("visitors share one allowance, which does not limit signed-in users; refused messages are not stored", async () => {
    const t = newTest();
    for (let i = 0; i < RATE_LIMITS.contact.everyVisitor.max; i++)
      await t.mutation(api.contact.send, message);
    expect(await errorCode(t.mutation(api.contact.send, message))).toBe("RATE_LIMITED");
    const sita = await insertCustomer(t);
    await sita.as.mutation(api.contact.send, message);
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(
      RATE_LIMITS.contact.everyVisitor.max + 1,
    );
  });

  test("a message refused as invalid does not count", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    for (let i = 0; i < RATE_LIMITS.contact.perUser.max; i++) {
      expect(
        await errorCode(sita.as.mutation(api.contact.send, { ...message, email: "maya" })),
      ).toBe("INVALID_INPUT");
    }
    await sita.as.mutation(api.contact.send, message);
  });
});

describe("files:generateUploadUrl", () => {
  test("a visitor's draft has its own allowance: its flood does not stop another visitor", async () => {
    const t = newTest();
    const flooder = await signUpDraft(t);
    for (let i = 0; i < DRAFT_LIMITS.uploads; i++)
      await t.mutation(api.files.generateUploadUrl, { draft: flooder });
    expect(await errorCode(t.mutation(api.files.generateUploadUrl, { draft: flooder }))).toBe(
      "DRAFT_USED_UP",
    );

    const other = await signUpDraft(t);
    for (let i = 0; i < 4; i++)
      expect(await t.mutation(api.files.generateUploadUrl, { draft: other })).toMatch(/^https?:/);
  });

  test("drafts together reach the visitors' ceiling only for its few seconds", async () => {
    fakeClock();
    const t = newTest();
    const { max, windowMs } = RATE_LIMITS.upload.everyVisitor;
    for (let i = 0; i < max / 4; i++) {
      const draft = await signUpDraft(t);
      for (let j = 0; j < 4; j++) await t.mutation(api.files.generateUploadUrl, { draft });
    }
    const late = await signUpDraft(t);
    expect(await errorMessage(t.mutation(api.files.generateUploadUrl, { draft: late }))).toBe(
      "Too many uploads right now, please try again in 5 seconds.",
    );
    const sita = await insertCustomer(t);
    expect(await sita.as.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);

    vi.setSystemTime(Date.now() + windowMs);
    expect(await t.mutation(api.files.generateUploadUrl, { draft: late })).toMatch(/^https?:/);
    // the refused call was not counted against the draft
    const row = await t.run((ctx) =>
      ctx.db
        .query("signUpDrafts")
        .withIndex("by_token", (q) => q.eq("token", late))
        .unique(),
    );
    expect(row?.uploads).toBe(1);
  });

  test("a signed-in user is limited on their own", async () => {
    const t = newTest();
    const sita = await insertCustomer(t);
    for (let i = 0; i < RATE_LIMITS.upload.perUser.max; i++)
      await sita.as.mutation(api.files.generateUploadUrl, {});
    expect(await errorCode(sita.as.mutation(api.files.generateUploadUrl, {}))).toBe("RATE_LIMITED");
    expect(await t.mutation(api.files.generateUploadUrl, { draft: await signUpDraft(t) })).toMatch(
      /^https?:/,
    );
  });

  test("visitors without a draft, or with an expired one, are refused", async () => {
    fakeClock();
    const t = newTest();
    expect(await errorCode(t.mutation(api.files.generateUploadUrl, {}))).toBe("DRAFT_NOT_FOUND");
    expect(
      await errorCode(t.mutation(api.files.generateUploadUrl, { draft: "0".repeat(32) })),
    ).toBe("DRAFT_NOT_FOUND");
    const draft = await signUpDraft(t);
    vi.setSystemTime(Date.now() + DRAFT_LIMITS.lifetimeMs);
    expect(await errorCode(t.mutation(api.files.generateUploadUrl, { draft }))).toBe(
      "DRAFT_NOT_FOUND",
    );
  });
});

describe("sign-up limits", () => {
  test("a visitor's flood with a taken email does not stop another visitor's sign-up", async () => {
    const t = newTest();
    await signUp(t, await customerSignUp(t, "taken@example.np"));
    const flood = await customerSignUp(t, "taken@example.np");
    const codes: string[] = [];
    for (let i = 0; i < 31; i++) codes.push(await errorCode(signUp(t, flood)));
    const perEmail = RATE_LIMITS.signUp.perEmail.max;
    // the first sign-up used one of the email's attempts
    expect(codes).toEqual([
      ...Array(perEmail - 1).fill("EMAIL_TAKEN"),
      ...Array(32 - perEmail).fill("RATE_LIMITED"),
    ]);
    // fresh drafts do not help: the email's allowance is spent
    expect(await errorCode(signUp(t, await customerSignUp(t, "taken@example.np")))).toBe(
      "RATE_LIMITED",
    );

    const other = await signUp(t, await customerSignUp(t, "gita@example.np"));
    expect(other.tokens?.token).toBeTypeOf("string");
    expect(await users(t)).toBe(2);
  });

  test("per email: attempts beyond its allowance wait for its window, whatever the draft", async () => {
    fakeClock();
    const t = newTest();
    const { max, windowMs } = RATE_LIMITS.signUp.perEmail;
    for (let i = 0; i < max; i++) {
      expect(
        await errorCode(
          signUp(t, { ...(await customerSignUp(t, "Busy@Example.np")), password: "x" }),
        ),
      ).toBe("INVALID_INPUT");
    }
    // refused input does not count; taken or not, valid attempts do
    for (let i = 0; i < max; i++) {
      await t.run((ctx) => ctx.db.insert("users", { role: "customer", email: "busy@example.np" }));
      expect(await errorCode(signUp(t, await customerSignUp(t, "busy@example.np")))).toBe(
        "EMAIL_TAKEN",
      );
      await t.run(async (ctx) => {
        for (const u of await ctx.db.query("users").collect()) await ctx.db.delete("users", u._id);
      });
    }
    expect(await errorMessage(signUp(t, await customerSignUp(t, "BUSY@example.np")))).toBe(
      "Too many sign-ups with this email, please try again in 10 minutes.",
    );
    vi.setSystemTime(Date.now() + windowMs);
    expect((await signUp(t, await customerSignUp(t, "busy@example.np"))).tokens?.token).toBeTypeOf(
      "string",
    );
  });

  test("everyone's ceiling stops a flood of fresh drafts and emails before any password is hashed, for seconds", async () => {
    fakeClock();
    const t = newTest();
    const { max, windowMs } = RATE_LIMITS.signUp.everyone;
    await t.run((ctx) =>
      ctx.db.insert("rateLimits", { key: "signUp:everyone:", windowStart: Date.now(), count: max }),
    );
    const late = await customerSignUp(t, "late@example.np");
    expect(await errorMessage(signUp(t, late))).toBe(
      "Too many sign-ups right now, please try again in 5 seconds.",
    );
    expect(await users(t)).toBe(0);
    vi.setSystemTime(Date.now() + windowMs);
    expect((await signUp(t, late)).tokens?.token).toBeTypeOf("string"); // the refused attempt was not counted
  });

  test("per draft: a few attempts, whatever the emails", async () => {
    const t = newTest();
    const taken = Array.from(
      { length: DRAFT_LIMITS.signUps + 1 },
      (_, i) => `taken${i}@example.np`,
    );
    await t.run(async (ctx) => {
      for (const email of taken) await ctx.db.insert("users", { role: "customer", email });
    });
    const params = await customerSignUp(t);
    const codes: string[] = [];
    for (const email of taken) codes.push(await errorCode(signUp(t, { ...params, email })));
    expect(codes).toEqual([...Array(DRAFT_LIMITS.signUps).fill("EMAIL_TAKEN"), "DRAFT_USED_UP"]);
  });

  test("a sign-up needs a draft, and a draft creates one account", async () => {
    const t = newTest();
    const { draft: _none, ...withoutDraft } = await customerSignUp(t);
    expect(await errorCode(signUp(t, withoutDraft))).toBe("DRAFT_NOT_FOUND");
    const params = await customerSignUp(t, "first@example.np");
    await signUp(t, params);
    expect(await errorCode(signUp(t, { ...params, email: "second@example.np" }))).toBe(
      "DRAFT_NOT_FOUND",
    );
    expect(await errorCode(t.mutation(api.files.generateUploadUrl, { draft: params.draft }))).toBe(
      "DRAFT_NOT_FOUND",
    );
    expect(await users(t)).toBe(1);
  });
});
