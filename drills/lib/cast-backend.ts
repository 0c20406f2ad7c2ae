/**
 * A started backend (`cli.ts --run seed:init --no-demo`, real ports) with the access drill's cast
 * (backend-fixtures.ts) in it, for the drills that attack what the cast's bookings reached: A's booking
 * with P (accepted), B's paid job with Q, B's next job with Q waiting at the door (start code open).
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./app-backend.ts";
import { buildBackendCast, type BackendCast } from "./backend-fixtures.ts";
import { freePorts, startCli, type HostileBackend } from "./hostile-backend.ts";
import { startPushStub } from "./push-stub.ts";

export type CastBackend = {
  backend: HostileBackend;
  cast: BackendCast;
  stop(): Promise<void>;
};

export async function startCastBackend(prefix: string): Promise<CastBackend> {
  const dataDir = tempDir(prefix);
  writeFileSync(path.join(dataDir, "env.local"), "PUSH_ALLOW_LOOPBACK_HTTP=1\n");
  const push = await startPushStub();
  const backend = await startCli({ dataDir, ports: await freePorts(), demo: false });
  const stop = async () => {
    await push.close();
    await backend.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const admin = backend.admin;
    if (admin === undefined) throw new Error("the drill backend made no admin");
    const cast = await buildBackendCast({
      url: backend.url,
      siteUrl: backend.siteUrl,
      dataDir,
      admin,
      pushService: push.origin,
    });
    return { backend, cast, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The `code` of a ConvexError a call threw (`{code, message}` data), or what else it threw. */
export async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "accepted";
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    if (typeof data === "object" && data !== null && "code" in data) return String(data.code);
    return error instanceof Error ? error.message.split("\n")[0]! : String(error);
  }
}
