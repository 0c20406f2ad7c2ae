/**
 * Guessing one-time codes, against the backend started as `npm start` starts it, on its real ports.
 *
 * An admin's authenticator code: an attacker who knows the admin's password floods both ways in
 * (`auth:signIn` with the admin provider, as the web app signs in, and `POST /api/admin/login` with
 * `code`) with guessed 6-digit codes, all at once. The server judges at most the limits' guesses (rules/limits.ts
 * twoFactor); each matches one of 2·window+1 codes of 10^6, so the drill turns the guesses it saw
 * judged into a chance of success and fails at 1 in 10,000 or more. A code whose time step was used
 * is refused, also when it is sent several times at once: exactly one of those signs in.
 *
 * An SMS sign-in code: an attacker who knows a customer's verified number asks for codes and floods
 * `auth:signIn`'s code flow with guesses. The server issues at most the limits' codes (rules/limits.ts
 * accountCode) and a code takes ACCOUNT_CODE.attempts wrong tries before it ends, so a day allows at
 * most (codes a day) × (tries a code) guesses of 10^6.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { Secret, TOTP } from "otpauth/slim";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ACCOUNT_CODE } from "../convex/rules/accountCodes";
import { RATE_LIMITS } from "../convex/rules/limits";
import { solveStamp } from "../convex/rules/signUpWork";
import { TOTP as RULES } from "../convex/rules/twoFactor";
import { tempDir } from "./lib/app-backend.ts";
import { smsTo } from "../local-backend/stand-ins/outbox-reader.ts";
import { refusal } from "./lib/cast-backend.ts";
import { canaryPhone } from "./lib/canaries.ts";
import {
  createAdmin,
  freePorts,
  startCli,
  type DrillAdmin,
  type HostileBackend,
} from "./lib/hostile-backend.ts";

type Admin = DrillAdmin;
type SignInResult = { tokens?: { token: string } | null };

const signIn = makeFunctionReference<"action", Record<string, unknown>, SignInResult>(
  "auth:signIn",
);
const begin = makeFunctionReference<"mutation", Record<string, never>, { key: string }>(
  "twoFactor:begin",
);
const confirm = makeFunctionReference<
  "mutation",
  { code: string },
  { recoveryCodes: string[] } | null
>("twoFactor:confirm");

const STEP_MS = RULES.periodSeconds * 1000;
/** Codes that match at any moment: this step's and `window` steps either side. */
const MATCHING = 2 * RULES.window + 1;
const CODE_SPACE = 10 ** RULES.digits;

const stepNow = () => Math.floor(Date.now() / STEP_MS);
const codeAt = (key: string, step: number) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: step * STEP_MS });

let backend: HostileBackend;

beforeAll(async () => {
  const dataDir = tempDir("gharsewa-totp-");
  writeFileSync(path.join(dataDir, "env.local"), "PUSH_ALLOW_LOOPBACK_HTTP=1\n");
  backend = await startCli({ dataDir, ports: await freePorts(), demo: false });
}, 600_000);

afterAll(async () => {
  if (backend === undefined) return;
  await backend.stop();
  rmSync(backend.dataDir, { recursive: true, force: true });
});

/** Signs the admin in with the password and sets up an authenticator: its key and the step used. */
async function enrol(admin: Admin): Promise<{ key: string; step: number }> {
  const client = new ConvexHttpClient(backend.url, { logger: false });
  const { tokens } = await client.action(signIn, {
    provider: "admin",
    params: { flow: "signIn", ...admin },
  });
  if (!tokens) throw new Error("the admin's password sign-in gave no tokens");
  client.setAuth(tokens.token);
  const { key } = await client.mutation(begin, {});
  const step = stepNow();
  if ((await client.mutation(confirm, { code: codeAt(key, step) })) === null)
    throw new Error("the first authenticator code was refused");
  return { key, step };
}

/** One sign-in with `code`, by the web app's way or the REST route: "signed in" or the refusal. */
async function attempt(admin: Admin, code: string, way: "web" | "http"): Promise<string> {
  if (way === "web") {
    const client = new ConvexHttpClient(backend.url, { logger: false });
    return await refusal(
      client
        .action(signIn, { provider: "admin", params: { flow: "signIn", ...admin, code } })
        .then((r) => {
          if (!r.tokens) throw new Error("no tokens");
        }),
    ).then((outcome) => (outcome === "accepted" ? "signed in" : outcome));
  }
  const res = await fetch(`${backend.siteUrl}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...admin, code }),
  });
  const body = (await res.json()) as { token?: string; code?: string };
  if (res.status === 200 && typeof body.token === "string") return "signed in";
  return body.code ?? `HTTP ${res.status}`;
}

const tally = (outcomes: string[]) =>
  outcomes.reduce<Record<string, number>>((t, o) => ({ ...t, [o]: (t[o] ?? 0) + 1 }), {});

test("a used authenticator code is refused, and sent several times at once signs in once", async () => {
  const admin = await createAdmin(backend, "replayed");
  const { key, step } = await enrol(admin);
  // the code the setup was confirmed with, seen over the admin's shoulder
  expect(await attempt(admin, codeAt(key, step), "web")).toBe("INVALID_CODE");
  // the next step's code (accepted within the window), sent four times at once both ways
  const next = codeAt(key, step + 1);
  const outcomes = await Promise.all(
    (["web", "http", "web", "http"] as const).map((way) => attempt(admin, next, way)),
  );
  console.log(`totp replay: one code sent 4 times at once → ${JSON.stringify(tally(outcomes))}`);
  expect(tally(outcomes)).toEqual({ "signed in": 1, INVALID_CODE: 3 });
  expect(await attempt(admin, next, "http")).toBe("INVALID_CODE");
}, 120_000);

test("a flood of guessed codes for a known password is judged within the limits: success < 1/10,000", async () => {
  const admin = backend.admin;
  if (admin === undefined) throw new Error("the drill backend made no admin");
  const { key, step } = await enrol(admin);
  // guesses that cannot match now or while the flood lasts, so that every one is a miss
  const live = new Set([-1, 0, 1, 2, 3].map((d) => codeAt(key, stepNow() + d)));
  const guesses: string[] = [];
  while (guesses.length < 120) {
    const guess = String(Math.floor(Math.random() * CODE_SPACE)).padStart(RULES.digits, "0");
    if (!live.has(guess)) guesses.push(guess);
  }
  const outcomes = await Promise.all(
    guesses.map((guess, i) => attempt(admin, guess, i % 2 === 0 ? "web" : "http")),
  );
  const counts = tally(outcomes);
  // a guess is judged when it is answered INVALID_CODE; a refusal by a limit judges nothing
  const judged = counts.INVALID_CODE ?? 0;
  const perWindow = RATE_LIMITS.twoFactor.perAccount.max;
  const perDay = RATE_LIMITS.twoFactor.perAccountDaily.max;
  const burst = (judged * MATCHING) / CODE_SPACE;
  const day = (perDay * MATCHING) / CODE_SPACE;
  // while limited, even the admin's right code is not judged
  const right = await attempt(admin, codeAt(key, Math.max(stepNow(), step + 1)), "web");
  console.log(
    `totp guessing: ${guesses.length} guesses at once (web + REST) → ${JSON.stringify(counts)}; ` +
      `${judged} judged (limit ${perWindow} per 15 min, ${perDay} a day) → ${burst} now, ` +
      `at most ${day} a day (1 in ${Math.round(1 / day)}); the right code afterwards: ${right}`,
  );
  // a guess is judged when it is answered INVALID_CODE; a refusal by a limit judges nothing
  for (const outcome of Object.keys(counts))
    expect(["INVALID_CODE", "RATE_LIMITED", "TOO_MANY_ATTEMPTS"]).toContain(outcome);
  expect(counts.INVALID_CODE).toBeGreaterThan(0);
  expect(judged).toBeGreaterThan(0);
  expect(judged).toBeLessThanOrEqual(perWindow);
  expect(burst).toBeLessThan(1 / 10_000);
  expect(day).toBeLessThan(1 / 10_000);
  expect(right).toBe("TOO_MANY_ATTEMPTS");
}, 180_000);

const draftCreate = makeFunctionReference<"mutation", { stamp: string }, { draft: string }>(
  "signUpDrafts:create",
);
const sendCode = makeFunctionReference<"mutation", { kind: "phone" }, null>(
  "contactVerification:sendCode",
);
const confirmContact = makeFunctionReference<"mutation", { kind: "phone"; code: string }, boolean>(
  "contactVerification:confirm",
);
const requestSignInCode = makeFunctionReference<
  "mutation",
  { role: "customer"; phone: string },
  null
>("signInCodes:request");

/** A customer signed up as the app signs one up, whose mobile number is verified by its SMS code. */
async function customerWithVerifiedPhone(phone: string) {
  const visitor = new ConvexHttpClient(backend.url, { logger: false });
  const { draft } = await visitor.mutation(draftCreate, { stamp: await solveStamp() });
  const { tokens } = await visitor.action(signIn, {
    provider: "customer",
    params: {
      flow: "signUp",
      draft,
      email: `sms-${phone}@example.np`,
      password: "correct horse",
      name: "Drill customer",
      address: "Baneshwor-10",
      zipCode: "44600",
      phone,
    },
  });
  if (!tokens) throw new Error("the customer's sign-up gave no tokens");
  const customer = new ConvexHttpClient(backend.url, { logger: false });
  customer.setAuth(tokens.token);
  await customer.mutation(sendCode, { kind: "phone" });
  const code = /\b(\d{6})\b/.exec(await smsTo(backend.siteUrl, phone))?.[1] ?? "";
  if (!(await customer.mutation(confirmContact, { kind: "phone", code })))
    throw new Error("the customer's phone code was refused");
}

test("a flood of guessed SMS sign-in codes is judged within the limits: success < 1/10,000 a day", async () => {
  const phone = canaryPhone();
  await customerWithVerifiedPhone(phone);
  const visitor = new ConvexHttpClient(backend.url, { logger: false });
  const codesPerHour = RATE_LIMITS.accountCode.perAddress.max;
  const asked = tally(
    await Promise.all(
      Array.from({ length: codesPerHour + 3 }, () =>
        refusal(visitor.mutation(requestSignInCode, { role: "customer", phone })),
      ),
    ),
  );
  const guesses = Array.from({ length: 60 }, (_, i) =>
    String(Math.floor(Math.random() * CODE_SPACE) + i).padStart(ACCOUNT_CODE.digits, "0"),
  );
  const counts = tally(
    await Promise.all(
      guesses.map((code) =>
        refusal(
          new ConvexHttpClient(backend.url, { logger: false }).action(signIn, {
            provider: "customer",
            params: { flow: "code", phone, code },
          }),
        ),
      ),
    ),
  );
  // at most so many codes a day, each ended by so many wrong tries; sign-in tries are limited too
  const codesPerDay = Math.min(codesPerHour * 24, RATE_LIMITS.accountCode.perAccount.max);
  const triesPerDay = Math.min(
    codesPerDay * ACCOUNT_CODE.attempts,
    RATE_LIMITS.signIn.perAccount.max * 24,
  );
  const day = triesPerDay / CODE_SPACE;
  console.log(
    `sms code guessing: ${codesPerHour + 3} code requests at once → ${JSON.stringify(asked)}; ` +
      `${guesses.length} guesses at once → ${JSON.stringify(counts)}; at most ${triesPerDay} ` +
      `guesses judged a day → ${day} (1 in ${Math.round(1 / day)})`,
  );
  expect(asked.accepted).toBeLessThanOrEqual(codesPerHour);
  expect(Object.keys(asked).sort()).toEqual(["RATE_LIMITED", "accepted"]);
  expect(counts["signed in"] ?? 0).toBe(0);
  expect(counts.accepted ?? 0).toBe(0);
  // a guess is judged when it is answered INVALID_CODE; a refusal by a limit judges nothing
  for (const outcome of Object.keys(counts))
    expect(["INVALID_CODE", "RATE_LIMITED", "TOO_MANY_ATTEMPTS"]).toContain(outcome);
  expect(counts.INVALID_CODE).toBeGreaterThan(0);
  expect(counts.INVALID_CODE).toBeLessThanOrEqual(RATE_LIMITS.signIn.perAccount.max);
  expect(day).toBeLessThan(1 / 10_000);
}, 180_000);
