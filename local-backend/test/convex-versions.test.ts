// The engine runs any convex 1.x whose `1.0/*` syscalls it answers (README, Versions): the fixture's
// functions, bundled by esbuild against the installed `convex` and against `convex-previous` (an older
// 1.x, an npm alias devDependency), give the same results through the same engine.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listModuleFiles } from "../engine/modules.ts";
import type { Backend } from "../server.ts";
import {
  closeTestBackends,
  fixtureConvexDir,
  newClient,
  nextValue,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

const PACKAGES = ["convex", "convex-previous"] as const;
type Package = (typeof PACKAGES)[number];

/** The `1.0/*` syscalls both versions make: what the engine must answer to run either. */
const SHARED_SYSCALLS = [
  "1.0/actions/action",
  "1.0/actions/cancel_job",
  "1.0/actions/mutation",
  "1.0/actions/query",
  "1.0/actions/schedule",
  "1.0/actions/vectorSearch",
  "1.0/cancel_job",
  "1.0/count",
  "1.0/createFunctionHandle",
  "1.0/db/normalizeId",
  "1.0/get",
  "1.0/getUserIdentity",
  "1.0/insert",
  "1.0/queryCleanup",
  "1.0/queryPage",
  "1.0/queryStream",
  "1.0/queryStreamNext",
  "1.0/remove",
  "1.0/replace",
  "1.0/runUdf",
  "1.0/schedule",
  "1.0/shallowMerge",
  "1.0/storageDelete",
  "1.0/storageGenerateUploadUrl",
  "1.0/storageGetMetadata",
  "1.0/storageGetUrl",
];

/** The `1.0/*` syscall names in a convex package's server code. */
function syscallsOf(pkg: Package): string[] {
  const dir = path.join("node_modules", pkg, "dist", "esm", "server");
  const ops = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".js")) continue;
    for (const [, op] of readFileSync(path.join(dir, file), "utf8").matchAll(/"(1\.0\/[\w/]+)"/g))
      ops.add(op);
  }
  return [...ops].sort();
}

const versionOf = (pkg: Package) =>
  (
    JSON.parse(readFileSync(path.join("node_modules", pkg, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

type Bundle = { dir: string; convexPackages: string[] };

/** `convexDir`'s modules bundled as the Convex CLI does (ESM, shared chunks in `_deps/`), `convex/*` from `pkg`. */
async function bundle(convexDir: string, pkg: Package): Promise<Bundle> {
  const dir = tempDataDir();
  const alias: Record<string, string> = pkg === "convex" ? {} : { convex: pkg };
  const { metafile } = await build({
    entryPoints: listModuleFiles(convexDir),
    outbase: convexDir,
    outdir: dir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: "_deps/[name]-[hash]",
    alias,
    metafile: true,
    logLevel: "silent",
  });
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  const convexPackages = new Set(
    Object.keys(metafile.inputs).flatMap((input) => {
      const match = /node_modules\/(convex(?:-previous)?)\//.exec(input);
      return match ? [match[1]] : [];
    }),
  );
  return { dir, convexPackages: [...convexPackages] };
}

type Deployment = { backend: Backend; http: ConvexHttpClient; bundle: Bundle };
const fixture = {} as Record<Package, Deployment>;

async function deploy(pkg: Package): Promise<Deployment> {
  const bundled = await bundle(fixtureConvexDir, pkg);
  const backend = await startTestBackend({ convexDir: bundled.dir });
  return { backend, http: new ConvexHttpClient(backend.url), bundle: bundled };
}

beforeAll(async () => {
  for (const pkg of PACKAGES) {
    fixture[pkg] = await deploy(pkg);
  }
});
afterAll(closeTestBackends);

/** Runs `scenario` on the fixture deployed with each version; the results, installed version first. */
async function onEachVersion<T>(scenario: (d: Deployment) => Promise<T>): Promise<T[]> {
  return await Promise.all(PACKAGES.map((pkg) => scenario(fixture[pkg])));
}

describe("the versions under test", () => {
  it("are convex 1.48.0 and 1.17.4, each deployment bundled with its own", () => {
    expect(versionOf("convex")).toBe("1.48.0");
    expect(versionOf("convex-previous")).toBe("1.17.4");
    for (const pkg of PACKAGES) {
      expect(fixture[pkg].bundle.convexPackages).toEqual([pkg]);
    }
  });

  it("share the 1.0 syscalls the engine answers; the older makes no other", () => {
    expect(syscallsOf("convex-previous")).toEqual(SHARED_SYSCALLS);
    expect(syscallsOf("convex")).toEqual(expect.arrayContaining(SHARED_SYSCALLS));
  });
});

describe("the fixture on each version", () => {
  it("a mutation's writes and an index range with a page read back the same", async () => {
    const [installed, previous] = await onEachVersion(async ({ http }) => {
      const cycle = (await http.mutation(anyApi.runtime.writeCycle, { name: "cycle" })) as Record<
        string,
        unknown
      >;
      return {
        cycle: { ...cycle, kept: typeof cycle.kept },
        byName: await http.query(anyApi.runtime.byName, { name: "cycle" }),
      };
    });
    expect(installed).toEqual({
      cycle: { patched: 2, replaced: "cycle-replaced", deleted: true, kept: "string" },
      byName: { first: 10, page: [10], done: true },
    });
    expect(previous).toEqual(installed);
  });

  it("paginate walks an index range page by page with the same cursors' results", async () => {
    const [installed, previous] = await onEachVersion(async ({ http }) => {
      await http.mutation(anyApi.items.insert, { list: "a", ranks: [5, 1, 4, 2, 3] });
      const pages: number[][] = [];
      let cursor: string | null = null;
      for (;;) {
        const page = (await http.query(anyApi.items.page, {
          list: "a",
          paginationOpts: { numItems: 2, cursor },
        })) as { page: { rank: number }[]; isDone: boolean; continueCursor: string };
        pages.push(page.page.map((item) => item.rank));
        if (page.isDone) return pages;
        cursor = page.continueCursor;
      }
    });
    expect(installed).toEqual([[1, 2], [3, 4], [5]]);
    expect(previous).toEqual(installed);
  });

  it("a ConvexError thrown by the old library rolls back and reaches the caller with its data", async () => {
    const [installed, previous] = await onEachVersion(async ({ http }) => ({
      data: await http.mutation(anyApi.runtime.writeThenThrow, { name: "refused" }).then(
        () => null,
        (error: { data?: unknown }) => error.data,
      ),
      kept: await http.query(anyApi.counters.get, { name: "refused" }),
    }));
    expect(installed).toEqual({ data: { code: "REFUSED", name: "refused" }, kept: 0 });
    expect(previous).toEqual(installed);
  });

  it("nested runMutation/runQuery and scheduled jobs (a mutation and an action) run", async () => {
    const [installed, previous] = await onEachVersion(async ({ backend, http }) => {
      const client = newClient(backend.url);
      const nested = (await http.mutation(anyApi.runtime.nestedAndScheduled, {
        name: "nested",
      })) as { counted: number; job: string };
      const jobId = await http.mutation(anyApi.jobs.schedule, {
        fn: "okAction",
        delayMs: 0,
        note: "from an action",
      });
      // each scheduled job runs once its mutation has committed
      const job = await nextValue<{ name: string; state: { kind: string } }>(
        client,
        anyApi.jobs.job,
        { id: jobId },
        (row) => row.state.kind === "success",
      );
      const result = {
        nested: { counted: nested.counted, job: nested.job },
        incremented: await nextValue<number>(
          client,
          anyApi.counters.get,
          { name: "nested" },
          (value) => value === 2,
        ),
        job: { name: job.name, state: job.state.kind },
        notes: await http.query(anyApi.jobs.notes, {}),
      };
      await client.close();
      return result;
    });
    expect(installed).toEqual({
      nested: { counted: 1, job: "pending" },
      incremented: 2,
      job: { name: "jobs:okAction", state: "success" },
      notes: ["from an action"],
    });
    expect(previous).toEqual(installed);
  });

  it("actions call runQuery, runMutation and runAction", async () => {
    const [installed, previous] = await onEachVersion(async ({ http }) => ({
      sent: await http.action(anyApi.messages.sendViaAction, { channel: "c", body: "hi" }),
      list: await http.query(anyApi.messages.list, { channel: "c" }),
      nested: await http.action(anyApi.cpu.nested, {}),
    }));
    expect(installed).toEqual({
      sent: "done",
      list: [{ body: "hi", author: null }],
      nested: { inner: false, echoed: true, subject: null },
    });
    expect(previous).toEqual(installed);
  });

  it("HTTP actions store files, run queries and turn a ConvexError into a response", async () => {
    const [installed, previous] = await onEachVersion(async ({ backend, http }) => {
      await http.mutation(anyApi.counters.increment, { name: "http" });
      const counter = await fetch(`${backend.siteUrl}/api/counter?name=http`);
      const missing = await fetch(`${backend.siteUrl}/api/counter?name=none`);
      const stored = await fetch(`${backend.siteUrl}/api/store`, { method: "POST", body: "hello" });
      const { storageId } = (await stored.json()) as { storageId: string };
      const metadata = (await http.query(anyApi.files.metadata, { storageId })) as {
        size: number;
      };
      return {
        counter: [counter.status, await counter.json()],
        missing: [missing.status, await missing.json()],
        storedSize: metadata.size,
      };
    });
    expect(installed).toEqual({
      counter: [200, { value: 1 }],
      missing: [404, { error: { code: "NO_COUNTER", name: "none" } }],
      storedSize: 5,
    });
    expect(previous).toEqual(installed);
  });
});
