/**
 * The e2e admins' authenticator app: global-setup sets up two-factor for each admin through the
 * app's own functions and keeps the key here; a sign-in asks for the next code as a phone would show
 * it. A code is accepted once (its time step must be later than the last accepted), so the last step
 * used is kept with the key: specs signing the same admin in within one 30-second step use the next.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { Secret, TOTP } from "otpauth/slim";
import { TOTP as RULES } from "../convex/rules/twoFactor";
import { E2E, type Deployment } from "./env";

const STEP_MS = RULES.periodSeconds * 1000;
/** The keys of a deployment's admins, kept in its data directory (this worker's by default). */
const keysFile = (on: Deployment = E2E) => path.join(on.dataDir, "e2e-two-factor.json");

type Keys = Record<string, { key: string; lastStep: number }>;

function readKeys(on?: Deployment): Keys {
  try {
    return JSON.parse(readFileSync(keysFile(on), "utf8")) as Keys;
  } catch {
    return {};
  }
}

/** The code of `key` for the time step `step`. */
export const codeAt = (key: string, step: number) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: step * STEP_MS });

export const currentStep = () => Math.floor(Date.now() / STEP_MS);

/** Signs `admin` in on `on` (this worker's deployment) with the password, sets up an authenticator and keeps its key. */
export async function enrolAdmin(
  admin: { username: string; password: string },
  on: Deployment = E2E,
): Promise<void> {
  const client = new ConvexHttpClient(on.convexUrl, { logger: false });
  const { tokens } = (await client.action(anyApi.auth.signIn, {
    provider: "admin",
    params: { flow: "signIn", ...admin },
  })) as { tokens: { token: string } };
  client.setAuth(tokens.token);
  const { key } = (await client.mutation(anyApi.twoFactor.begin, {})) as { key: string };
  const step = currentStep();
  await client.mutation(anyApi.twoFactor.confirm, { code: codeAt(key, step) });
  const keys = { ...readKeys(on), [admin.username]: { key, lastStep: step } };
  writeFileSync(keysFile(on), JSON.stringify(keys));
}

/**
 * The next unused code of an e2e admin: this step's, or the next one's (accepted too), waiting for
 * the clock only when both were used already.
 */
export async function nextCode(username: string): Promise<string> {
  const keys = readKeys();
  const entry = keys[username];
  if (entry === undefined) throw new Error(`no authenticator set up for ${username}`);
  const step = Math.max(currentStep(), entry.lastStep + 1);
  const wait = (step - 1) * STEP_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  writeFileSync(keysFile(), JSON.stringify({ ...keys, [username]: { ...entry, lastStep: step } }));
  return codeAt(entry.key, step);
}
