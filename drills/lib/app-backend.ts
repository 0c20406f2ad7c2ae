/**
 * A local backend running the real convex/ in this process, with the catalog seeded and one signed-in
 * account per role (real JWTs from the HTTP login routes), plus table snapshots for "nothing changed".
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { Secret, TOTP } from "otpauth/slim";
import { startBackend, type Backend } from "../../local-backend/server.ts";
import schema from "../../convex/schema.ts";

/** A valid 1 × 1 PNG: uploads are checked by their image header. */
export const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
export const PASSWORD = "correct horse";

export type Account = { email: string; token: string; userId: string };
export type AppBackend = Awaited<ReturnType<typeof startAppBackend>>;

export function tempDir(prefix = "gharsewa-drill-") {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** One phone per account is the rule, so each email gets its own Nepali mobile number. */
function phoneFor(email: string) {
  let hash = 0;
  for (const char of email) hash = (hash * 31 + char.charCodeAt(0)) % 1e8;
  return `98${String(hash).padStart(8, "0")}`;
}

export function registrationForm(
  email: string,
  professional: boolean,
  files: Record<string, Blob> = {},
) {
  const form = new FormData();
  const fields: Record<string, string> = {
    fullname: professional ? "Drill Professional" : "Drill Customer",
    email,
    phoneNumber: phoneFor(email),
    password: PASSWORD,
    address: "Ward 7, Biratnagar",
    zipCode: "56613",
  };
  if (professional)
    Object.assign(fields, { specialty: "Electrician", city: "Kathmandu", state: "Bagmati" });
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const png = () => new Blob([PNG], { type: "image/png" });
  if (professional) {
    for (const k of ["citizenshipFront", "citizenshipBack", "trainingCertificate"])
      form.set(k, png(), `${k}.png`);
  }
  for (const [k, v] of Object.entries(files)) form.set(k, v, `${k}.bin`);
  return form;
}

async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as {
    success: boolean;
    token?: string;
    user?: { _id: string };
    message?: string;
  };
}

export async function startAppBackend(options: { dataDir?: string; port?: number } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const backend: Backend = await startBackend({
    port: options.port ?? 0,
    sitePort: 0,
    dataDir,
    convexDir: "convex",
    env: { AUTH_LOG_LEVEL: "WARN" },
  });
  const admin = new ConvexHttpClient(backend.url, { logger: false });
  // setAdminAuth is @internal in the client's types (the dashboard and CLI use it)
  (admin as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
  await admin.mutation(
    makeFunctionReference<"mutation">("seed:catalogAndSettings") as never,
    {} as never,
  );

  const site = backend.siteUrl;
  async function account(kind: "customer" | "professional", tag: string): Promise<Account> {
    const email = `${tag}.${kind}@example.np`;
    const reg = await fetch(
      `${site}/api/${kind === "customer" ? "users" : "technicians"}/register`,
      {
        method: "POST",
        body: registrationForm(email, kind === "professional"),
      },
    );
    if (reg.status !== 201) throw new Error(`register ${kind}: ${reg.status} ${await reg.text()}`);
    const login = await postJson(
      `${site}/api/${kind === "customer" ? "users" : "technicians"}/login`,
      { email, password: PASSWORD },
    );
    if (!login.token || !login.user) throw new Error(`login ${kind}: ${JSON.stringify(login)}`);
    return { email, token: login.token, userId: login.user._id };
  }
  const customer = await account("customer", "a");
  const otherCustomer = await account("customer", "b");
  const professional = await account("professional", "p");
  const credentials = (await admin.action(
    makeFunctionReference<"action">("admin:createAdmin") as never,
    {
      username: "drilladmin",
      password: `${PASSWORD} admin`,
    } as never,
  )) as { username: string; password: string };
  const adminLogin = await postJson(`${site}/api/admin/login`, credentials);
  if (!adminLogin.token) throw new Error(`admin login: ${JSON.stringify(adminLogin)}`);
  await setUpTwoFactor(backend.url, adminLogin.token);

  /**
   * Every document of every table (and stored file metadata), hashed; `skip` tables are left out: by
   * default the ones that count attempts (failed passwords, rate-limit windows, an HTTP registration's draft).
   */
  async function fingerprint(
    skip: string[] = ["authRateLimits", "rateLimits", "signUpDrafts"],
  ): Promise<{ hash: string; counts: Record<string, number> }> {
    const tables = Object.keys(
      (schema as unknown as { tables: Record<string, unknown> }).tables,
    ).filter((t) => !skip.includes(t));
    const dump = (await backend.engine.t.run(async (ctx: unknown) => {
      const c = ctx as unknown as {
        db: {
          query(t: string): { collect(): Promise<unknown[]> };
          system: { query(t: string): { collect(): Promise<unknown[]> } };
        };
      };
      const out: Record<string, unknown[]> = {};
      for (const table of tables) out[table] = await c.db.query(table).collect();
      out._storage = await c.db.system.query("_storage").collect();
      return out;
    })) as Record<string, unknown[]>;
    const counts = Object.fromEntries(Object.entries(dump).map(([k, v]) => [k, v.length]));
    return { hash: createHash("sha1").update(JSON.stringify(dump)).digest("hex"), counts };
  }

  return {
    backend,
    dataDir,
    site,
    admin,
    accounts: {
      customer,
      otherCustomer,
      professional,
      admin: { email: credentials.username, token: adminLogin.token, userId: "" },
    },
    adminCredentials: credentials,
    fingerprint,
    async close(removeData = options.dataDir === undefined) {
      await backend.close();
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sets up an authenticator for the admin of `token`, as the setup screen does: admin functions need it. */
async function setUpTwoFactor(url: string, token: string): Promise<void> {
  const client = new ConvexHttpClient(url, { logger: false });
  client.setAuth(token);
  const { key } = (await client.mutation(
    makeFunctionReference<"mutation">("twoFactor:begin") as never,
    {} as never,
  )) as { key: string };
  const code = TOTP.generate({ secret: Secret.fromBase32(key) });
  const done = await client.mutation(
    makeFunctionReference<"mutation">("twoFactor:confirm") as never,
    { code } as never,
  );
  if (done === null) throw new Error("two-factor setup of the drill admin was refused");
}
