import { Scrypt } from "lucia";
import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import {
  errorCode,
  errorMessage,
  newTest,
  customerSignUp,
  professionalSignUp,
  storeUpload,
  useAuthEnv,
  useCheapPasswordHashes,
  type TestConvex,
} from "./test.setup";
import { RATE_LIMITS } from "./rules/limits";

beforeAll(useAuthEnv);

async function signIn(t: TestConvex, provider: string, params: Record<string, unknown>) {
  return await t.action(api.auth.signIn, { provider, params });
}

describe("sign-up", () => {
  useCheapPasswordHashes();

  test("a customer signs up and gets tokens; the role comes from the provider", async () => {
    const t = newTest();
    const params = { ...(await customerSignUp(t, "Sita@Example.NP")), role: "admin" };
    const result = await signIn(t, "customer", params);
    expect(result.tokens?.token).toBeTypeOf("string");
    const user = await t.run((ctx) =>
      ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "sita@example.np"))
        .unique(),
    );
    expect(user?.role).toBe("customer");
    expect(user?.name).toBe("Hari Bahadur");
  });

  test("a professional signs up with documents; the profile row is created in the same sign-up", async () => {
    const t = newTest();
    const params = await professionalSignUp(t, "ram@example.np");
    await signIn(t, "professional", params);
    const { user, pro } = await t.run(async (ctx) => {
      const user = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "ram@example.np"))
        .unique();
      const pro = await ctx.db
        .query("professionals")
        .withIndex("by_userId", (q) => q.eq("userId", user!._id))
        .unique();
      return { user, pro };
    });
    expect(user?.role).toBe("professional");
    expect(pro).toMatchObject({
      specialty: "mason",
      city: "pokhara",
      state: "Gandaki",
      verification: { status: "unverified" },
      available: true,
      documents: { citizenshipFront: params.citizenshipFront },
    });
  });

  test("a phone number another account has is refused at sign-up, however it is written", async () => {
    const t = newTest();
    const first = await customerSignUp(t);
    await signIn(t, "customer", { ...first, phone: "9812345678" });
    const second = await professionalSignUp(t);
    expect(
      await errorCode(signIn(t, "professional", { ...second, phone: "+977-981-2345678" })),
    ).toBe("PHONE_TAKEN");
  });

  test("professionals cannot sign up without all three documents", async () => {
    const t = newTest();
    const { trainingCertificate: _omitted, ...params } = await professionalSignUp(t);
    expect(await errorMessage(signIn(t, "professional", params))).toBe(
      "Training Certificate image is required.",
    );
    expect(await t.run((ctx) => ctx.db.query("users").take(1))).toEqual([]);
  });

  test("a document that is not an image is refused and deleted", async () => {
    const t = newTest();
    const params = await professionalSignUp(t);
    const pdf = await storeUpload(
      t,
      { draft: params.draft },
      new TextEncoder().encode("%PDF-1.7 not an image"),
    );
    expect(await errorCode(signIn(t, "professional", { ...params, citizenshipBack: pdf }))).toBe(
      "FILE_NOT_IMAGE",
    );
    expect(await t.run((ctx) => ctx.db.system.get("_storage", pdf))).toBeNull();
    expect(await t.run((ctx) => ctx.db.query("professionals").take(1))).toEqual([]);
  });

  test("a document attached to another account is not this sign-up's to attach", async () => {
    const t = newTest();
    const first = await professionalSignUp(t);
    await signIn(t, "professional", first);
    const copy = { ...(await professionalSignUp(t)), citizenshipFront: first.citizenshipFront };
    expect(await errorCode(signIn(t, "professional", copy))).toBe("FILE_NOT_YOURS");
  });

  test("a document over 5 MB is refused", async () => {
    const t = newTest();
    const params = await professionalSignUp(t);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    const id = await storeUpload(t, { draft: params.draft }, big, "image/jpeg");
    expect(await errorCode(signIn(t, "professional", { ...params, trainingCertificate: id }))).toBe(
      "FILE_TOO_LARGE",
    );
  });

  test("an unknown storage id is refused", async () => {
    const t = newTest();
    const params = await professionalSignUp(t);
    expect(
      await errorCode(signIn(t, "professional", { ...params, citizenshipFront: "nonsense" })),
    ).toBe("FILE_NOT_FOUND");
  });

  test("input rules: short password, bad email, unknown specialty", async () => {
    const t = newTest();
    const customer = await customerSignUp(t);
    expect(await errorMessage(signIn(t, "customer", { ...customer, password: "short" }))).toBe(
      "Password must be at least 8 characters.",
    );
    expect(await errorCode(signIn(t, "customer", { ...customer, email: "not-an-email" }))).toBe(
      "INVALID_INPUT",
    );
    const pro = await professionalSignUp(t);
    expect(await errorMessage(signIn(t, "professional", { ...pro, specialty: "Astronaut" }))).toBe(
      "Choose a specialty from the list.",
    );
  });

  test("an email already used (by any role) is refused", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "dup@example.np"));
    expect(
      await errorMessage(signIn(t, "customer", await customerSignUp(t, "dup@example.np"))),
    ).toBe("An account with this email already exists");
    expect(
      await errorCode(signIn(t, "professional", await professionalSignUp(t, "DUP@example.np"))),
    ).toBe("EMAIL_TAKEN");
  });

  test("nobody signs up through the admin provider", async () => {
    const t = newTest();
    const params = { flow: "signUp", username: "boss", password: "correct horse" };
    expect(await errorCode(signIn(t, "admin", params))).toBe("SIGN_UP_REFUSED");
    expect(await t.run((ctx) => ctx.db.query("users").take(1))).toEqual([]);
  });

  test("other flows are refused readably", async () => {
    const t = newTest();
    expect(
      await errorCode(signIn(t, "customer", { flow: "email-verification", email: "a@b.np" })),
    ).toBe("UNSUPPORTED_FLOW");
  });
});

describe("sign-in", () => {
  useCheapPasswordHashes();

  test("the right role signs in; the wrong role's provider says 'Invalid email or password'", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "gita@example.np"));
    const ok = await signIn(t, "customer", {
      flow: "signIn",
      email: " GITA@example.np",
      password: "correct horse",
    });
    expect(ok.tokens?.token).toBeTypeOf("string");
    expect(
      await errorMessage(
        signIn(t, "professional", {
          flow: "signIn",
          email: "gita@example.np",
          password: "correct horse",
        }),
      ),
    ).toBe("Invalid email or password");
    expect(
      await errorMessage(
        signIn(t, "customer", { flow: "signIn", email: "gita@example.np", password: "wrong pass" }),
      ),
    ).toBe("Invalid email or password");
    expect(
      await errorMessage(
        signIn(t, "customer", { flow: "signIn", email: "nobody@example.np", password: "x" }),
      ),
    ).toBe("Invalid email or password");
  }, 60_000);

  test("a customer or professional signs in with their mobile number, however it is written", async () => {
    const t = newTest();
    await signIn(t, "customer", { ...(await customerSignUp(t)), phone: "9812345678" });
    const pro = await professionalSignUp(t);
    await signIn(t, "professional", { ...pro, phone: "9701234567" });
    const withNumber = (provider: string, email: string, password = "correct horse") =>
      signIn(t, provider, { flow: "signIn", email, password });
    expect((await withNumber("customer", "+977-981-2345678")).tokens?.token).toBeTypeOf("string");
    expect((await withNumber("professional", "970 1234567")).tokens?.token).toBeTypeOf("string");
    // another role's number, a wrong password and an unknown number all answer alike
    for (const refused of [
      () => withNumber("professional", "9812345678"),
      () => withNumber("customer", "9812345678", "wrong pass"),
      () => withNumber("customer", "9800000000"),
    ])
      expect(await errorMessage(refused())).toBe("Invalid email or password");
  }, 60_000);

  test("tries by mobile number count against that number however it is written", async () => {
    const t = newTest();
    await signIn(t, "customer", { ...(await customerSignUp(t)), phone: "9812345678" });
    const wrong = (email: string) =>
      signIn(t, "customer", { flow: "signIn", email, password: "wrong password" });
    for (let i = 0; i < 10; i++)
      expect(await errorCode(wrong(i % 2 ? "9812345678" : "+977 981-2345678"))).toBe(
        "INVALID_CREDENTIALS",
      );
    expect(await errorCode(wrong("9812345678"))).toBe("TOO_MANY_ATTEMPTS");
  }, 180_000);

  test("repeated failures are rate limited", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "hari@example.np"));
    const wrong = { flow: "signIn", email: "hari@example.np", password: "wrong password" };
    for (let i = 0; i < 10; i++)
      expect(await errorCode(signIn(t, "customer", wrong))).toBe("INVALID_CREDENTIALS");
    expect(await errorMessage(signIn(t, "customer", { ...wrong, password: "correct horse" }))).toBe(
      "Too many attempts, try again later",
    );
  }, 180_000);

  test("unknown emails use up their tries as known accounts do", async () => {
    const t = newTest();
    const unknown = { flow: "signIn", email: "nobody.here@example.np", password: "guess" };
    for (let i = 0; i < 10; i++)
      expect(await errorCode(signIn(t, "customer", unknown))).toBe("INVALID_CREDENTIALS");
    expect(await errorMessage(signIn(t, "customer", unknown))).toBe(
      "Too many attempts, try again later",
    );
  }, 180_000);

  test("a sign-in with the right password starts the account's tries again", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "tara@example.np"));
    const tryWith = (password: string) =>
      signIn(t, "customer", { flow: "signIn", email: "tara@example.np", password });
    for (let i = 0; i < 9; i++) await errorCode(tryWith("wrong password"));
    expect((await tryWith("correct horse")).tokens?.token).toBeTypeOf("string");
    for (let i = 0; i < 9; i++)
      expect(await errorCode(tryWith("wrong password"))).toBe("INVALID_CREDENTIALS");
  }, 180_000);

  test("all sign-ins together stop at everyone's ceiling, before any hashing", async () => {
    const t = newTest();
    const { max } = RATE_LIMITS.signIn.everyone;
    const codes = await Promise.all(
      Array.from({ length: max + 3 }, (_, i) =>
        errorCode(
          signIn(t, "customer", { flow: "signIn", email: `x${i}@example.np`, password: "guess" }),
        ),
      ),
    );
    expect(codes.filter((c) => c === "INVALID_CREDENTIALS")).toHaveLength(max);
    expect(codes.filter((c) => c === "RATE_LIMITED")).toHaveLength(3);
  }, 180_000);

  test("an admin created internally signs in by username; nobody else can use the admin provider", async () => {
    const t = newTest();
    const { password } = await t.action(internal.admin.createAdmin, { username: "Boss" });
    expect(password.length).toBeGreaterThanOrEqual(16);
    const ok = await signIn(t, "admin", { flow: "signIn", username: "boss", password });
    expect(ok.tokens?.token).toBeTypeOf("string");
    expect(
      await errorMessage(
        signIn(t, "admin", { flow: "signIn", username: "boss", password: "wrong one" }),
      ),
    ).toBe("Invalid username or password");
    await signIn(t, "customer", await customerSignUp(t, "c@example.np"));
    expect(
      await errorCode(
        signIn(t, "admin", { flow: "signIn", username: "c@example.np", password: "correct horse" }),
      ),
    ).toBe("INVALID_CREDENTIALS");
  }, 60_000);

  test("sign-out ends the session server-side", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "s@example.np"));
    const { userId, sessionId } = await t.run(async (ctx) => {
      const session = (await ctx.db.query("authSessions").take(1))[0];
      return { userId: session.userId, sessionId: session._id };
    });
    await t.withIdentity({ subject: `${userId}|${sessionId}` }).action(api.auth.signOut, {});
    expect(await t.run((ctx) => ctx.db.get("authSessions", sessionId))).toBeNull();
  });
});

// Real hashing: what a sign-in stores is checked here, iteration count and all.
describe("stored password hashes", () => {
  test("a password hashed with lucia's scrypt signs in once and is stored as PBKDF2", async () => {
    const t = newTest();
    await signIn(t, "customer", await customerSignUp(t, "old@example.np"));
    const accountId = await t.run(async (ctx) => {
      const account = (await ctx.db.query("authAccounts").take(1))[0];
      expect(account.secret).toMatch(/^\$pbkdf2-sha256\$i=600000\$/);
      await ctx.db.patch("authAccounts", account._id, {
        secret: await new Scrypt().hash("correct horse"),
      });
      return account._id;
    });
    const again = { flow: "signIn", email: "old@example.np", password: "correct horse" };
    expect((await signIn(t, "customer", again)).tokens?.token).toBeTypeOf("string");
    const secret = await t.run(
      async (ctx) => (await ctx.db.get("authAccounts", accountId))?.secret,
    );
    expect(secret).toMatch(/^\$pbkdf2-sha256\$i=600000\$/);
    expect((await signIn(t, "customer", again)).tokens?.token).toBeTypeOf("string");
    expect(await errorCode(signIn(t, "customer", { ...again, password: "wrong" }))).toBe(
      "INVALID_CREDENTIALS",
    );
  }, 60_000);
});
