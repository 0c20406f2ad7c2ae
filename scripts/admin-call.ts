/**
 * Runs an internal function on a running deployment with its admin key, as `npx convex run` does.
 * The key comes from CONVEX_ADMIN_KEY / CONVEX_DEPLOY_KEY, else from <data>/admin-key of the local backend.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

export type Deployment = { url?: string; data: string };

function adminKey(data: string): string {
  const fromEnv = process.env.CONVEX_ADMIN_KEY ?? process.env.CONVEX_DEPLOY_KEY;
  if (fromEnv) return fromEnv.trim();
  const file = path.join(data, "admin-key");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    fail(`No admin key: set CONVEX_ADMIN_KEY, or start the local backend so that ${file} exists.`);
  }
}

export function deploymentUrl({ url }: Deployment): string {
  return (
    url ??
    process.env.CONVEX_URL ??
    process.env.VITE_CONVEX_URL ??
    "http://127.0.0.1:3210"
  ).replace(/\/$/, "");
}

/** Calls `fnPath` (an internal action or mutation) and returns its value, or exits with the server's message. */
export async function adminCall<T>(
  deployment: Deployment,
  kind: "action" | "mutation",
  fnPath: string,
  args: object,
): Promise<T> {
  const url = deploymentUrl(deployment);
  let response: Response;
  try {
    response = await fetch(`${url}/api/${kind}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Convex ${adminKey(deployment.data)}`,
      },
      body: JSON.stringify({ path: fnPath, args: [args], format: "json" }),
    });
  } catch (error) {
    fail(
      `Could not reach ${url}: ${error instanceof Error ? error.message : String(error)}. Is the backend running?`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as {
    status?: string;
    value?: T;
    errorMessage?: string;
    errorData?: { message?: string };
  };
  if (response.status !== 200 || body.status !== "success") {
    fail(
      `${fnPath} failed: ${body.errorData?.message ?? body.errorMessage ?? `HTTP ${response.status}`}`,
    );
  }
  return body.value as T;
}
