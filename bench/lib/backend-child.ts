/**
 * A fresh local backend in its own process (so its CPU can be read from /proc/<pid>/stat), driven
 * by the benchmark over IPC. The bench-only way to create rows: `backend.engine.t.run` (the same
 * engine transaction path a mutation takes, so every row is logged, fsynced and seen by
 * subscriptions) — nothing is added to convex/ for benchmarks.
 * Usage (forked by bench/lib/backend.ts): backend-child.ts <dataDir> <convexDir>
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import type { AddressInfo } from "node:net";
import { startBackend } from "../../local-backend/server.ts";
import { resetStageTrace, stageJoins, stageSummary } from "../../local-backend/stage-trace.ts";
import { createStaticServer } from "../../local-backend/static.ts";

type Request =
  | { id: number; op: "run"; fn: string; args: unknown }
  | { id: number; op: "insert"; table: string; docs: Record<string, unknown>[] }
  | { id: number; op: "find"; table: string; index: string; field: string; value: unknown }
  | { id: number; op: "storeBlob"; bytes: number[]; type: string }
  | { id: number; op: "serve"; dir: string }
  | { id: number; op: "stages"; reset: boolean }
  | { id: number; op: "close" };

type Db = {
  db: {
    insert(table: string, doc: unknown): Promise<string>;
    query(table: string): {
      withIndex(
        index: string,
        range: (q: { eq(field: string, value: unknown): unknown }) => unknown,
      ): { first(): Promise<unknown> };
    };
  };
};

const [dataDir, convexDir] = process.argv.slice(2);
// BENCH_BACKEND_PROFILE=<file.cpuprofile>: a CPU profile of the fan-out's measured window.
const profile = process.env.BENCH_BACKEND_PROFILE
  ? windowProfile(process.env.BENCH_BACKEND_PROFILE)
  : undefined;

function windowProfile(file: string) {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  return {
    async start() {
      await post("Profiler.enable");
      await post("Profiler.start");
    },
    async stop() {
      const { profile } = (await post("Profiler.stop")) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}
const backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir });
const servers: ReturnType<typeof createStaticServer>[] = [];

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case "run":
      return (await backend.engine.call("any", req.fn, req.args, { identity: null, admin: true }))
        .value;
    case "insert":
      return await backend.engine.t.run(async (ctx: Db) => {
        const ids: string[] = [];
        for (const doc of req.docs) ids.push(await ctx.db.insert(req.table, doc));
        return ids;
      });
    case "find":
      return await backend.engine.t.run(
        async (ctx: Db) =>
          await ctx.db
            .query(req.table)
            .withIndex(req.index, (q) => q.eq(req.field, req.value))
            .first(),
      );
    case "storeBlob":
      return await backend.engine.storeBlob(
        new Blob([new Uint8Array(req.bytes)], { type: req.type }),
      );
    case "serve": {
      const server = createStaticServer(req.dir);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    case "stages":
      if (req.reset) {
        await profile?.start();
        return resetStageTrace();
      }
      await profile?.stop();
      return { summary: stageSummary(), joins: stageJoins() };
    case "close":
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
      await backend.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on("message", (req: Request) => {
  handle(req).then(
    (value) => process.send!({ id: req.id, ok: true, value }),
    (error: unknown) =>
      process.send!({
        id: req.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
process.send!({ ready: true, url: backend.url, siteUrl: backend.siteUrl });
