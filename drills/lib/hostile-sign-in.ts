/**
 * Sign-in floods must not stall anyone else: `loops` visitors each send `auth:signIn` with made-up
 * emails (a fresh one per call, so no per-email limit applies) one after the other for `seconds`,
 * while another client asks `settings:get` (over HTTP, so every call is the server's work, never the
 * client's cache) every `gapMs`; its latencies give the p99. Then, on a quiet backend, wrong-password sign-ins of a known account and sign-ins of
 * unknown emails take turns: their medians must match (an attacker must not tell them apart).
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { within, type HostileBackend } from "./hostile-backend.ts";

const signInRef = makeFunctionReference<"action", Record<string, unknown>, unknown>("auth:signIn");
const settingsGet = makeFunctionReference<"query", Record<string, never>, unknown>("settings:get");

export type SignInFloodReport = {
  loops: number;
  seconds: number;
  /** Flood calls answered "wrong email or password" (hashed), refused by a ceiling, failed otherwise. */
  hashed: number;
  limited: number;
  otherErrors: string[];
  /** The same client's p99 for 3 s before the flood: what the machine gives anyway. */
  quietP99: number;
  canaryCalls: number;
  p50: number;
  p99: number;
  max: number;
  knownMedianMs: number;
  unknownMedianMs: number;
  failures: string[];
};

type Outcome = "INVALID_CREDENTIALS" | "RATE_LIMITED" | "TOO_MANY_ATTEMPTS" | string;

async function trySignIn(url: string, email: string, password: string): Promise<Outcome> {
  try {
    await new ConvexHttpClient(url, { logger: false }).action(signInRef, {
      provider: "customer",
      params: { flow: "signIn", email, password },
    });
    return "signed in";
  } catch (error) {
    const data = (error as { data?: { code?: string } }).data;
    return data?.code ?? (error as Error).message.slice(0, 200);
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSignInFlood(
  backend: HostileBackend,
  options: {
    loops: number;
    seconds: number;
    gapMs?: number;
    /** A demo account nobody else signs in to during the drill, for the timing comparison. */
    knownEmail: string;
    timingRounds: number;
  },
): Promise<SignInFloodReport> {
  const { loops, seconds, gapMs = 25, knownEmail, timingRounds } = options;
  const failures: string[] = [];
  const otherErrors: string[] = [];
  let hashed = 0;
  let limited = 0;
  const run = Math.random().toString(36).slice(2, 8);

  const canary = new ConvexHttpClient(backend.url, { logger: false });
  await within(canary.query(settingsGet, {}), 15_000, "canary warm-up");
  const quiet: number[] = [];
  const quietUntil = Date.now() + 3000;
  while (Date.now() < quietUntil) {
    const started = performance.now();
    await within(canary.query(settingsGet, {}), 15_000, "settings:get");
    quiet.push(performance.now() - started);
    await sleep(gapMs);
  }
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  let flooding = true;
  const canaryLoop = (async () => {
    while (flooding) {
      const started = performance.now();
      try {
        await within(canary.query(settingsGet, {}), 30_000, "settings:get");
      } catch (error) {
        failures.push((error as Error).message);
      }
      latencies.push(performance.now() - started);
      await sleep(gapMs);
    }
  })();
  let n = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (Date.now() < deadline) {
        const outcome = await trySignIn(backend.url, `nobody.${run}.${n++}@example.np`, "guess");
        if (outcome === "INVALID_CREDENTIALS") hashed++;
        else if (outcome === "RATE_LIMITED") limited++;
        else if (otherErrors.length < 10) otherErrors.push(outcome);
      }
    }),
  );
  flooding = false;
  await canaryLoop;
  const sorted = [...latencies].sort((a, b) => a - b);

  // everyone's ceiling has a window of seconds: let it pass before timing single calls
  await sleep(6000);
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < timingRounds; i++) {
    for (const [email, into] of [
      [knownEmail, known],
      [`nobody.${run}.timing.${i}@example.np`, unknown],
    ] as const) {
      const started = performance.now();
      const outcome = await trySignIn(backend.url, email, `wrong password ${i}`);
      into.push(performance.now() - started);
      if (outcome !== "INVALID_CREDENTIALS")
        failures.push(`timing sign-in of ${email} answered ${outcome}`);
    }
  }
  if (otherErrors.length > 0) failures.push(`flood sign-ins failed otherwise: ${otherErrors[0]}`);
  return {
    loops,
    seconds,
    hashed,
    limited,
    otherErrors,
    quietP99: Math.round(
      percentile(
        [...quiet].sort((a, b) => a - b),
        0.99,
      ),
    ),
    canaryCalls: latencies.length,
    p50: Math.round(percentile(sorted, 0.5)),
    p99: Math.round(percentile(sorted, 0.99)),
    max: Math.round(sorted[sorted.length - 1] ?? NaN),
    knownMedianMs: Math.round(median(known)),
    unknownMedianMs: Math.round(median(unknown)),
    failures,
  };
}

export function summarizeSignInFlood(r: SignInFloodReport): string {
  return (
    `${r.loops} visitors signing in with made-up emails for ${r.seconds} s ` +
    `(${r.hashed} hashed, ${r.limited} refused by everyone's ceiling): another client's ` +
    `settings:get p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms over ${r.canaryCalls} calls ` +
    `(p99 ${r.quietP99} ms before the flood); ` +
    `wrong password median ${r.knownMedianMs} ms, unknown email ${r.unknownMedianMs} ms`
  );
}
