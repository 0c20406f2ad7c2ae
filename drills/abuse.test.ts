// @vitest-environment edge-runtime
/**
 * Abuse: password guessing is locked out after auth's failed-attempt limit, location updates above
 * 1/s are refused, a visitor flooding upload URLs or sign-ups is cut off at their own limits while
 * other visitors sign up, the contact form at the visitors' shared limit, a customer's booking flood
 * at the per-customer limits, a 6 MB upload is refused when it is attached and files never attached
 * are swept a day later.
 * (Script tags: abuse-render.test.tsx.)
 */
import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import { upsertCatalog } from "../convex/model/catalog";
import { BOOKING_LIMITS, DRAFT_LIMITS, RATE_LIMITS } from "../convex/rules/limits";
import {
  PNG_BYTES,
  customerSignUp,
  errorCode,
  errorMessage,
  insertCustomer,
  insertProfessional,
  newTest,
  professionalSignUp,
  signUpDraft,
  storeUpload,
  useAuthEnv,
  withSession,
  type TestConvex,
} from "../convex/test.setup";

beforeAll(useAuthEnv);

/** auth's default `maxFailedAttempsPerHour`. */
const FAILED_ATTEMPT_LIMIT = 10;
const SIX_MB = new Uint8Array(6 * 1024 * 1024);
SIX_MB.set(PNG_BYTES);

const postJson = (t: TestConvex, path: string, body: unknown) =>
  t.fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const tableSizes = (t: TestConvex) =>
  t.run(async (ctx) => ({
    users: (await ctx.db.query("users").collect()).length,
    professionals: (await ctx.db.query("professionals").collect()).length,
    files: (await ctx.db.system.query("_storage").collect()).length,
  }));

describe("abuse", () => {
  test("password guessing over the HTTP API is locked out after the limit, even for the right password", async () => {
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "guess.me@example.np"),
    });
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_ATTEMPT_LIMIT; i++) {
      statuses.push(
        (
          await postJson(t, "/api/users/login", {
            email: "guess.me@example.np",
            password: `guess ${i}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual(Array(FAILED_ATTEMPT_LIMIT).fill(401));
    const locked = await postJson(t, "/api/users/login", {
      email: "guess.me@example.np",
      password: "correct horse",
    });
    expect(locked.status).toBe(429);
    expect(await locked.json()).toEqual({
      success: false,
      code: "TOO_MANY_ATTEMPTS",
      message: "Too many attempts, try again later",
    });
    // the app's sign-in (auth:signIn) says the same
    expect(
      await errorMessage(
        t.action(api.auth.signIn, {
          provider: "customer",
          params: { flow: "signIn", email: "guess.me@example.np", password: "correct horse" },
        }),
      ),
    ).toBe("Too many attempts, try again later");
    console.log(
      `abuse: password guessing locked after ${FAILED_ATTEMPT_LIMIT} failures (HTTP 429 TOO_MANY_ATTEMPTS)`,
    );
  }, 60_000);

  test("location updates above 1/s are refused (RATE_LIMITED), at 1/s accepted", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    let accepted = 0;
    let limited = 0;
    for (let i = 0; i < 10; i++) {
      try {
        await pro.as.mutation(api.locations.update, { longitude: 85.3 + i / 1000, latitude: 27.7 });
        accepted++;
      } catch (error) {
        expect(await errorCode(Promise.reject(error))).toBe("RATE_LIMITED");
        limited++;
      }
    }
    expect({ accepted, limited }).toEqual({ accepted: 1, limited: 9 });
    // one second later the next one is accepted
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("liveLocations").collect())[0];
      await ctx.db.patch("liveLocations", row._id, { updatedAt: row.updatedAt - 1000 });
    });
    await pro.as.mutation(api.locations.update, { longitude: 85.4, latitude: 27.7 });

    // the HTTP API enforces the same limit
    const { as } = await withSession(t, pro.userId);
    const res = await as.fetch("/api/current-location", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userId: pro.userId, longitude: 85.5, latitude: 27.7 }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ success: false, code: "RATE_LIMITED" });
    console.log(
      `abuse: 10 location updates in a burst → ${accepted} accepted, ${limited} RATE_LIMITED`,
    );
  });

  test("a visitor's flood of upload URLs stops at their draft's allowance, not other visitors'; contact messages at the visitors' shared limit", async () => {
    const t = newTest();
    const flood = async (call: () => Promise<unknown>) => {
      const outcome = { accepted: 0, limited: 0 };
      for (let i = 0; i < 500; i++) {
        try {
          await call();
          outcome.accepted++;
        } catch (error) {
          expect(["RATE_LIMITED", "DRAFT_USED_UP"]).toContain(
            await errorCode(Promise.reject(error)),
          );
          outcome.limited++;
        }
      }
      return outcome;
    };
    const draft = await signUpDraft(t);
    const uploads = await flood(() => t.mutation(api.files.generateUploadUrl, { draft }));
    const message = { name: "Flood", email: "flood@example.np", message: "Buy cheap watches now" };
    const messages = await flood(() => t.mutation(api.contact.send, message));
    expect(uploads).toEqual({
      accepted: DRAFT_LIMITS.uploads,
      limited: 500 - DRAFT_LIMITS.uploads,
    });
    expect(messages).toEqual({
      accepted: RATE_LIMITS.contact.everyVisitor.max,
      limited: 500 - RATE_LIMITS.contact.everyVisitor.max,
    });
    expect(
      await t.run(async (ctx) => (await ctx.db.query("contactMessages").collect()).length),
    ).toBe(RATE_LIMITS.contact.everyVisitor.max);

    const otherVisitor = await signUpDraft(t);
    for (let i = 0; i < 4; i++)
      await t.mutation(api.files.generateUploadUrl, { draft: otherVisitor });
    const customer = await insertCustomer(t);
    await customer.as.mutation(api.files.generateUploadUrl, {});
    await customer.as.mutation(api.contact.send, { ...message, message: "Do you serve Butwal?" });
    console.log(
      `abuse: 500 upload URLs on one visitor's draft → ${uploads.accepted} accepted, ${uploads.limited} refused, another visitor's 4 uploads served; 500 contact messages → ${messages.accepted} stored, ${messages.limited} RATE_LIMITED; a signed-in user still served`,
    );
  }, 60_000);

  test("a visitor's flood of sign-ups (app and HTTP, a taken email) does not stop another visitor signing up", async () => {
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "taken@example.np"),
    });
    const form = (email: string) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({
        fullname: "Flood",
        email,
        phoneNumber: "9812345678",
        password: "secret pass",
        address: "Ward 7",
        zipCode: "56613",
      })) {
        f.set(k, v);
      }
      return f;
    };
    const codes = new Map<string, number>();
    const count = (code: string) => codes.set(code, (codes.get(code) ?? 0) + 1);
    const params = await customerSignUp(t, "taken@example.np");
    const flood = async (calls: number) => {
      for (let i = 0; i < calls; i++) {
        if (i % 2 === 0) {
          count(await errorCode(t.action(api.auth.signIn, { provider: "customer", params })));
        } else {
          count(
            `HTTP ${(await t.fetch("/api/users/register", { method: "POST", body: form("taken@example.np") })).status}`,
          );
        }
      }
    };
    await flood(40);
    // the flood goes on while another visitor signs up in the app and a third over HTTP
    const started = performance.now();
    const [, other, res] = await Promise.all([
      flood(40),
      t.action(api.auth.signIn, {
        provider: "customer",
        params: await customerSignUp(t, "second.visitor@example.np"),
      }),
      t.fetch("/api/users/register", { method: "POST", body: form("third.visitor@example.np") }),
    ]);
    const tookMs = performance.now() - started;
    expect(other.tokens?.token).toBeTypeOf("string");
    expect(res.status).toBe(201);
    expect(tookMs).toBeLessThan(5_000);
    expect([...codes.keys()].sort()).toEqual([
      "EMAIL_TAKEN",
      "HTTP 409",
      "HTTP 429",
      "RATE_LIMITED",
    ]);
    console.log(
      `abuse: a sign-up flood with a taken email (80 calls, app and HTTP: ${[...codes].map(([c, n]) => `${n} ${c}`).join(", ")}) ran while another visitor signed up and a third registered over HTTP, both in ${Math.round(tookMs)} ms`,
    );
  }, 60_000);

  test("a customer's flood of booking requests stops at the per-customer limits", async () => {
    const t = newTest();
    await t.run((ctx) => upsertCatalog(ctx));
    const customer = await insertCustomer(t);
    const pros: Awaited<ReturnType<typeof insertProfessional>>[] = [];
    for (let i = 0; i < 6; i++) pros.push(await insertProfessional(t, { name: `Pro ${i}` }));
    const service = await t.run((ctx) =>
      ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
        .first(),
    );
    const request = (professionalId: (typeof pros)[number]["professionalId"]) =>
      customer.as.mutation(api.bookings.create, {
        professionalId,
        serviceIds: [service!._id],
        address: "Ward 2, Thamel",
        city: "kathmandu",
        scheduledFor: Date.now() + 3_600_000,
      });
    const flood = async (
      attempts: number,
      pick: (i: number) => (typeof pros)[number]["professionalId"],
    ) => {
      const outcome = { made: 0, codes: new Set<string>() };
      for (let i = 0; i < attempts; i++) {
        try {
          await request(pick(i));
          outcome.made++;
        } catch (error) {
          outcome.codes.add(await errorCode(Promise.reject(error)));
        }
      }
      return outcome;
    };
    const onePro = await flood(500, () => pros[0].professionalId);
    const spread = await flood(500, (i) => pros[i % pros.length].professionalId);
    expect(onePro).toEqual({
      made: BOOKING_LIMITS.openPerProfessional,
      codes: new Set(["TOO_MANY_OPEN_REQUESTS"]),
    });
    expect(spread).toEqual({
      made: BOOKING_LIMITS.openOverall - BOOKING_LIMITS.openPerProfessional,
      codes: new Set(["TOO_MANY_OPEN_REQUESTS"]),
    });
    const notified = await t.run(
      async (ctx) => (await ctx.db.query("notifications").collect()).length,
    );
    expect(notified).toBe(BOOKING_LIMITS.openOverall);
    console.log(
      `abuse: 500 booking requests to one professional → ${onePro.made} made; 500 more spread over ${pros.length} → ${spread.made} more (${BOOKING_LIMITS.openOverall} open at most), each refusal TOO_MANY_OPEN_REQUESTS; ${notified} notifications`,
    );
  }, 60_000);

  test("a 6 MB image is refused when attached (profile photo, sign-up document, HTTP registration)", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const big = await storeUpload(t, { userId: customer.userId }, SIX_MB);
    const before = await tableSizes(t);
    expect(
      await errorCode(
        customer.as.mutation(api.users.updateProfile, {
          name: "Sita Sharma",
          phone: "9800000001",
          address: "Ward 4, Baneshwor",
          zipCode: "44600",
          photo: big,
        }),
      ),
    ).toBe("FILE_TOO_LARGE");
    expect((await t.run((ctx) => ctx.db.get("users", customer.userId)))?.photo).toBeUndefined();

    const docs = await professionalSignUp(t, "big.docs@example.np");
    const signUp = {
      ...docs,
      trainingCertificate: await storeUpload(t, { draft: docs.draft }, SIX_MB),
    };
    expect(
      await errorCode(t.action(api.auth.signIn, { provider: "professional", params: signUp })),
    ).toBe("FILE_TOO_LARGE");
    expect(
      await t.run((ctx) => ctx.db.system.get("_storage", signUp.trainingCertificate)),
    ).toBeNull(); // rejected file deleted

    const form = new FormData();
    for (const [k, v] of Object.entries({
      fullname: "Big Photo",
      email: "big.photo@example.np",
      phoneNumber: "9812345678",
      password: "secret pass",
      address: "Ward 7",
      zipCode: "56613",
    })) {
      form.set(k, v);
    }
    form.set("profile", new Blob([SIX_MB], { type: "image/png" }), "big.png");
    const res = await t.fetch("/api/users/register", { method: "POST", body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: "FILE_TOO_LARGE" });

    const after = await tableSizes(t);
    // the refused sign-up's three small documents stay uploaded (they were never attached); nothing else
    expect({ ...after, files: after.files - 3 }).toEqual({ ...before, files: before.files });
    // until the hourly sweep finds them a day old (here: a cut-off of now), with the refused 6 MB photo
    await t.mutation(internal.files.sweepOrphans, { before: Date.now() + 1 });
    expect(await t.run((ctx) => ctx.db.system.query("_storage").collect())).toEqual([]);
    console.log(
      "abuse: 6 MB upload refused on attach (FILE_TOO_LARGE) by updateProfile, sign-up and POST /api/users/register; never-attached files swept",
    );
  }, 60_000);
});
