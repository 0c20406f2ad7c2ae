import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { DRAFT_LIMITS, RATE_LIMITS } from "./rules/limits";
import { SIGN_UP_WORK, solveStamp, stampWork } from "./rules/signUpWork";
import { errorCode, insertCustomer, newTest, type TestConvex } from "./test.setup";

afterEach(() => {
  vi.useRealTimers();
});

/** A well-formed stamp that does not prove the work. */
async function unsolvedStamp(): Promise<string> {
  for (let nonce = 0; ; nonce++) {
    const stamp = `${Date.now()}:${"ab".repeat(16)}:${nonce}`;
    if ((await stampWork(stamp)) < SIGN_UP_WORK.bits) return stamp;
  }
}

const drafts = (t: TestConvex) => t.run((ctx) => ctx.db.query("signUpDrafts").collect());

/** The error's data (code, message and extras) of a refused call. */
async function refusal(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await call.then(
    () => expect.unreachable("expected a refusal"),
    (e: unknown) => e as { data: unknown },
  );
  return (typeof error.data === "string" ? JSON.parse(error.data) : error.data) as Record<
    string,
    unknown
  >;
}

describe("signUpDrafts:create", () => {
  test("a solved stamp buys a draft with a secret token, for a day; anyone may ask", async () => {
    const t = newTest();
    const { draft, expiresAt } = await t.mutation(api.signUpDrafts.create, {
      stamp: await solveStamp(),
    });
    expect(draft).toMatch(/^[0-9a-f]{32}$/);
    expect(expiresAt - Date.now()).toBeGreaterThan(DRAFT_LIMITS.lifetimeMs - 60_000);
    const sita = await insertCustomer(t);
    await sita.as.mutation(api.signUpDrafts.create, { stamp: await solveStamp() });
    expect(await drafts(t)).toHaveLength(2);
  });

  test("an unsolved, malformed or reused stamp is refused and buys nothing", async () => {
    const t = newTest();
    expect(
      await errorCode(t.mutation(api.signUpDrafts.create, { stamp: await unsolvedStamp() })),
    ).toBe("STAMP_INVALID");
    expect(await errorCode(t.mutation(api.signUpDrafts.create, { stamp: "hello" }))).toBe(
      "STAMP_INVALID",
    );
    const stamp = await solveStamp();
    await t.mutation(api.signUpDrafts.create, { stamp });
    expect(await errorCode(t.mutation(api.signUpDrafts.create, { stamp }))).toBe("STAMP_USED");
    expect(await drafts(t)).toHaveLength(1);
  });

  test("a stamp from a clock far off is refused with the server's time, for which the client solves again", async () => {
    const t = newTest();
    const slowClock = Date.now() - SIGN_UP_WORK.maxAgeMs - 60_000;
    const data = await refusal(
      t.mutation(api.signUpDrafts.create, { stamp: await solveStamp(slowClock) }),
    );
    expect(data.code).toBe("STAMP_EXPIRED");
    expect(data.serverTime).toBeTypeOf("number");
    await t.mutation(api.signUpDrafts.create, {
      stamp: await solveStamp(data.serverTime as number),
    });
  });

  test("everyone's ceiling on new drafts holds for its few seconds", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t = newTest();
    const { max, windowMs } = RATE_LIMITS.draft.everyone;
    await t.run((ctx) =>
      ctx.db.insert("rateLimits", { key: "draft:everyone:", windowStart: Date.now(), count: max }),
    );
    const stamp = await solveStamp();
    expect(await errorCode(t.mutation(api.signUpDrafts.create, { stamp }))).toBe("RATE_LIMITED");
    vi.setSystemTime(Date.now() + windowMs);
    await t.mutation(api.signUpDrafts.create, { stamp }); // the refused call did not use the stamp up
  });
});

describe("signUpDrafts:createForApi", () => {
  const email = { email: "new@example.np" };

  test("registrations without a stamp share a small allowance; one with a stamp gets a draft of its own", async () => {
    const t = newTest();
    for (let i = 0; i < RATE_LIMITS.apiDraft.everyone.max; i++) {
      await t.mutation(internal.signUpDrafts.createForApi, email);
    }
    expect(await errorCode(t.mutation(internal.signUpDrafts.createForApi, email))).toBe(
      "RATE_LIMITED",
    );
    await t.mutation(internal.signUpDrafts.createForApi, { ...email, stamp: await solveStamp() });
    expect(await drafts(t)).toHaveLength(RATE_LIMITS.apiDraft.everyone.max + 1);
  });

  test("an email with no sign-up attempts left is refused before it uses up the shared allowance", async () => {
    const t = newTest();
    const { max } = RATE_LIMITS.signUp.perEmail;
    await t.run((ctx) =>
      ctx.db.insert("rateLimits", {
        key: "signUp:perEmail:taken@example.np",
        windowStart: Date.now(),
        count: max,
      }),
    );
    for (let i = 0; i < 3 * RATE_LIMITS.apiDraft.everyone.max; i++) {
      const refused = t.mutation(internal.signUpDrafts.createForApi, {
        email: " Taken@Example.np",
      });
      expect(await errorCode(refused)).toBe("RATE_LIMITED");
    }
    await t.mutation(internal.signUpDrafts.createForApi, email);
  });
});

describe("signUpDrafts:sweepExpired", () => {
  test("deletes drafts past their lifetime, keeps the others", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t = newTest();
    await t.mutation(internal.signUpDrafts.createForApi, { email: "a@example.np" });
    vi.setSystemTime(Date.now() + DRAFT_LIMITS.lifetimeMs / 2);
    const { draft: young } = await t.mutation(internal.signUpDrafts.createForApi, {
      email: "a@example.np",
    });
    vi.setSystemTime(Date.now() + DRAFT_LIMITS.lifetimeMs / 2 + 1);
    await t.mutation(internal.signUpDrafts.sweepExpired, {});
    expect((await drafts(t)).map((d) => d.token)).toEqual([young]);
  });
});
