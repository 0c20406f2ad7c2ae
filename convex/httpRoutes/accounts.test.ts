import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "../_generated/api";
import { RATE_LIMITS } from "../rules/limits";
import { writePosition } from "../model/locations";
import {
  PNG_BYTES,
  customerSignUp,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  useAuthEnv,
  withSession,
  type TestConvex,
} from "../test.setup";

beforeAll(useAuthEnv);

const ORIGIN = "https://partner.example";

function postJson(t: TestConvex, path: string, body: unknown) {
  return t.fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN },
    body: JSON.stringify(body),
  });
}

function registrationForm(fields: Record<string, string>, files: Record<string, Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, v] of Object.entries(files)) form.set(k, v, `${k}.png`);
  return form;
}

const png = () => new Blob([PNG_BYTES], { type: "image/png" });
const spec = {
  fullname: "Bina Karki",
  email: "bina@example.np",
  phoneNumber: "9812345678",
  password: "secret pass",
  address: "Ward 7, Biratnagar",
  zipCode: "56613",
  role: "customer",
};

describe("register and log in", () => {
  test("customer: multipart register, then JSON login returning a JWT", async () => {
    const t = newTest();
    const registered = await t.fetch("/api/users/register", {
      method: "POST",
      body: registrationForm(spec, { profile: png() }),
    });
    expect(registered.status).toBe(201);
    const body = await registered.json();
    expect(body).toMatchObject({
      success: true,
      user: {
        name: "Bina Karki",
        role: "customer",
        userEmail: "bina@example.np",
        phoneNumber: "9812345678",
      },
    });
    expect(body.user.profilePhoto.url).toMatch(/^https?:/);
    expect(await t.run((ctx) => ctx.db.query("authSessions").take(1))).toEqual([]); // registering does not sign in

    const login = await postJson(t, "/api/users/login", {
      email: "bina@example.np",
      password: "secret pass",
      role: "customer",
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    const session = await login.json();
    expect(session).toMatchObject({
      success: true,
      user: { role: "customer" },
      message: expect.any(String),
    });
    expect(session.token.split(".")).toHaveLength(3);
  });

  test("professional: documents in the form; missing or non-image files are refused and nothing is kept", async () => {
    const t = newTest();
    const fields = {
      ...spec,
      email: "dev@example.np",
      specialty: "Home-Applicance",
      city: "Nepalgunj",
      state: "Lumbini",
    };
    const docs = { citizenshipFront: png(), citizenshipBack: png(), trainingCertificate: png() };

    const missing = await t.fetch("/api/technicians/register", {
      method: "POST",
      body: registrationForm(fields, { citizenshipFront: png() }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ success: false, code: "INVALID_INPUT" });

    const pdf = await t.fetch("/api/technicians/register", {
      method: "POST",
      body: registrationForm(fields, {
        ...docs,
        trainingCertificate: new Blob(["%PDF-1.4"], { type: "image/png" }),
      }),
    });
    expect(pdf.status).toBe(415);
    expect(await pdf.json()).toMatchObject({ success: false, code: "FILE_NOT_IMAGE" });
    expect(await t.run((ctx) => ctx.db.system.query("_storage").take(1))).toEqual([]);

    const ok = await t.fetch("/api/technicians/register", {
      method: "POST",
      body: registrationForm(fields, docs),
    });
    expect(ok.status).toBe(201);
    expect((await ok.json()).user.role).toBe("professional");
    const pro = await t.run((ctx) => ctx.db.query("professionals").take(2));
    expect(pro).toMatchObject([
      { specialty: "home-appliance", city: "nepalgunj", state: "Lumbini" },
    ]);

    const wrongDoor = await postJson(t, "/api/users/login", {
      email: "dev@example.np",
      password: "secret pass",
    });
    expect(wrongDoor.status).toBe(401);
    expect(await wrongDoor.json()).toEqual({
      success: false,
      code: "INVALID_CREDENTIALS",
      message: "Invalid email or password",
    });
    expect(
      (
        await postJson(t, "/api/technicians/login", {
          email: "dev@example.np",
          password: "secret pass",
        })
      ).status,
    ).toBe(200);
  });

  test("a taken email is a 409; JSON sent as text is a 415; malformed JSON a 400", async () => {
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "taken@example.np"),
    });
    const taken = await t.fetch("/api/users/register", {
      method: "POST",
      body: registrationForm({ ...spec, email: "taken@example.np" }, {}),
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe("An account with this email already exists");
    const text = await t.fetch("/api/users/login", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(415);
    const bad = await t.fetch("/api/users/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, code: "INVALID_JSON" });
  });

  test("registrations past an email's sign-up attempts are a 429 saying when to come back", async () => {
    const t = newTest();
    await t.action(api.auth.signIn, {
      provider: "customer",
      params: await customerSignUp(t, "taken@example.np"),
    });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < RATE_LIMITS.signUp.perEmail.max; i++) {
      last = await t.fetch("/api/users/register", {
        method: "POST",
        body: registrationForm({ ...spec, email: "taken@example.np" }, {}),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(RATE_LIMITS.signUp.perEmail.max - 1).fill(409), 429]);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(500);
    expect(await last!.json()).toMatchObject({ success: false, code: "RATE_LIMITED" });
  });

  test("admin login by username gives a token; wrong password is a 401", async () => {
    const t = newTest();
    await t.action(internal.admin.createAdmin, { username: "root", password: "root password" });
    const ok = await postJson(t, "/api/admin/login", {
      username: "root",
      password: "root password",
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).token).toBeTypeOf("string");
    const wrong = await postJson(t, "/api/admin/login", {
      username: "root",
      password: "nope nope",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({
      success: false,
      message: "Invalid username or password",
    });
    expect((await postJson(t, "/api/admin/login", { username: "root" })).status).toBe(400);
  });

  test("an admin with two-factor on is refused without the code, and with a wrong one", async () => {
    const t = newTest();
    await t.action(internal.admin.createAdmin, { username: "root", password: "root password" });
    await t.run(async (ctx) => {
      const admin = await ctx.db
        .query("users")
        .withIndex("by_role", (q) => q.eq("role", "admin"))
        .first();
      await ctx.db.insert("twoFactor", {
        userId: admin!._id,
        secret: "sealed",
        setupStartedAt: Date.now(),
        enabledAt: Date.now(),
        recoveryCodes: [],
      });
    });
    const credentials = { username: "root", password: "root password" };
    const bare = await postJson(t, "/api/admin/login", credentials);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ success: false, code: "TWO_FACTOR_REQUIRED" });
    const wrong = await postJson(t, "/api/admin/login", { ...credentials, code: "123456" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ success: false, code: "INVALID_CODE" });
  });
});

describe("signed-in endpoints", () => {
  test("signout needs a token and ends the session", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const { sessionId, as } = await withSession(t, customer.userId);
    const visitor = await t.fetch("/api/signout", { method: "POST" });
    expect(visitor.status).toBe(401);
    const out = await as.fetch("/api/signout", { method: "POST" });
    expect(out.status).toBe(200);
    expect(await out.json()).toMatchObject({
      success: true,
      message: "Sita Sharma has been logged out successfully",
    });
    expect(await t.run((ctx) => ctx.db.get("authSessions", sessionId))).toBeNull();
    // The token is still a valid JWT until it expires, but its session is gone.
    expect((await as.fetch("/api/signout", { method: "POST" })).status).toBe(401);
  });

  test("GET /api/technicians/ is for admins: 401 visitor, 403 customer and professional", async () => {
    const t = newTest();
    const pro = await insertProfessional(t);
    await t.run(async (ctx) =>
      writePosition(ctx, (await ctx.db.get("professionals", pro.professionalId))!, {
        lat: 27.71234,
        lng: 85.31234,
      }),
    );
    const admin = await insertAdmin(t);
    const customer = await insertCustomer(t);
    expect((await t.fetch("/api/technicians/")).status).toBe(401);
    expect((await customer.as.fetch("/api/technicians/")).status).toBe(403);
    expect((await pro.as.fetch("/api/technicians")).status).toBe(403);
    const res = await admin.as.fetch("/api/technicians/");
    expect(res.status).toBe(200);
    const { technicians } = await res.json();
    expect(technicians).toMatchObject([
      {
        _id: pro.professionalId,
        name: "Ram Thapa",
        specialty: "electrician",
        location: [{ city: "kathmandu" }],
        currentLocation: { coordinates: [85.31234, 27.71234] },
      },
    ]);
    expect(technicians[0].email).toContain("@");
  });

  test("an admin without two-factor is refused the admin routes (403) but may sign out", async () => {
    const t = newTest();
    const admin = await insertAdmin(t, "fresh", { twoFactor: false });
    const refused = await admin.as.fetch("/api/technicians/");
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe("TWO_FACTOR_SETUP_REQUIRED");
    expect((await admin.as.fetch("/api/signout", { method: "POST" })).status).toBe(200);
  });

  test("GET /api/technicians/search is public, needs both parameters, rounds positions", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { specialty: "plumber" });
    await t.run(async (ctx) =>
      writePosition(ctx, (await ctx.db.get("professionals", pro.professionalId))!, {
        lat: 27.71234,
        lng: 85.31234,
      }),
    );
    const res = await t.fetch("/api/technicians/search?specialty=Plumber&city=Kathmandu");
    expect(res.status).toBe(200);
    const { technicians } = await res.json();
    expect(technicians).toHaveLength(1);
    expect(technicians[0]).not.toHaveProperty("email");
    expect(technicians[0].currentLocation.coordinates).toEqual([85.31, 27.71]);
    expect((await t.fetch("/api/technicians/search?specialty=Plumber")).status).toBe(400);
  });
});

describe("HTTP conventions", () => {
  test("wrong method is a JSON 405; unknown /api path a JSON 404; preflight answers CORS", async () => {
    const t = newTest();
    const wrong = await t.fetch("/api/users/login", { method: "GET" });
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
    const unknown = await t.fetch("/api/nothing/here", { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: "NOT_FOUND" });
    const preflight = await t.fetch("/api/users/login", {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Headers": "content-type,authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe(
      "content-type,authorization",
    );
  });

  test("a body sent without a length is refused once it passes 64 KB, the rest never read", async () => {
    const t = newTest();
    const chunk = new TextEncoder().encode(" ".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await t.fetch("/api/users/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(256 * 1024);
  });

  test("an oversized body is a 413", async () => {
    const t = newTest();
    const res = await t.fetch("/api/users/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.np", password: "x".repeat(70_000) }),
    });
    expect(res.status).toBe(413);
  });
});
