// The Convex CLI against the local backend, offline: `npx convex deploy` (the real CLI and its bundler)
// pushes this repo's convex/ to an empty backend, which then runs the pushed bundles; `convex run`,
// `data`, `env`, `export` and `import` work against it; a restart keeps the pushed code and the data.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const convexCli = path.join(repo, "node_modules/convex/bin/main.js");

const work = mkdtempSync(path.join(tmpdir(), "cli-deploy-"));
const project = path.join(work, "project");
const dataDir = path.join(work, "data");
const emptyConvexDir = path.join(work, "empty-convex");
let backend: { child: ChildProcess; url: string; siteUrl: string } | undefined;
let adminKey: string;

/** A backend in a child process (as `npm start` runs it), started on `--convex <empty dir>`. */
async function startChild(): Promise<{ child: ChildProcess; url: string; siteUrl: string }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(repo, "local-backend/cli.ts"),
      ...["--port", "0", "--site-port", "0", "--data", dataDir, "--convex", emptyConvexDir],
    ],
    { cwd: repo, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const urls = await new Promise<{ url: string; siteUrl: string }>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      output += c.toString();
      const url = output.match(/Convex URL:\s+(\S+)/)?.[1];
      const siteUrl = output.match(/HTTP actions:\s+(\S+)/)?.[1];
      if (url && siteUrl) resolve({ url, siteUrl });
    });
    child.once("exit", (code) => reject(new Error(`backend exited (${code}):\n${output}`)));
  });
  return { child, ...urls };
}

/** An HTTP client with the admin key, as the CLI's system queries use. */
function admin() {
  const client = new ConvexHttpClient(backend!.url);
  // setAdminAuth is marked internal in convex/browser's types (the CLI's own runs use it).
  (client as unknown as { setAdminAuth(key: string): void }).setAdminAuth(adminKey);
  return client;
}

async function stopChild() {
  if (!backend) return;
  const { child } = backend;
  backend = undefined;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
}

/** The real CLI, offline: self-hosted URL + admin key, no telemetry (CI=1 turns Sentry off). */
async function convex(...args: string[]): Promise<{ stdout: string; all: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: work,
    CI: "1",
    CONVEX_SELF_HOSTED_URL: backend!.url,
    CONVEX_SELF_HOSTED_ADMIN_KEY: adminKey,
  };
  const { stdout, stderr } = await run(process.execPath, [convexCli, ...args], {
    cwd: project,
    env,
    timeout: 60_000,
  });
  return { stdout, all: `${stdout}${stderr}` };
}

beforeAll(async () => {
  mkdirSync(emptyConvexDir);
  mkdirSync(project);
  cpSync(path.join(repo, "convex"), path.join(project, "convex"), { recursive: true });
  for (const file of ["package.json", "convex.json"])
    cpSync(path.join(repo, file), path.join(project, file));
  symlinkSync(path.join(repo, "node_modules"), path.join(project, "node_modules"), "dir");
  backend = await startChild();
  adminKey = readFileSync(path.join(dataDir, "admin-key"), "utf8").trim();
});

afterAll(async () => {
  await stopChild();
  rmSync(work, { recursive: true, force: true });
});

describe("the Convex CLI against the local backend", () => {
  it("npx convex deploy pushes convex/ to an empty backend, which runs the pushed bundles", async () => {
    const http = new ConvexHttpClient(backend!.url);
    await expect(http.query(anyApi.catalog.categories, {})).rejects.toThrow(
      /Could not find public function/,
    );

    const deployed = await convex(
      "deploy",
      "--typecheck",
      "disable",
      "--codegen",
      "disable",
      "--yes",
    );
    expect(deployed.all).toContain(`Deployed Convex functions to ${backend!.url}`);

    // `convex run` runs an internal function with the admin key.
    const seeded = await convex("run", "seed:init", '{"demo": false}');
    expect(JSON.parse(seeded.stdout)).toMatchObject({
      adminCreated: "admin",
      demoCreated: false,
    });
    const categories = (await http.query(anyApi.catalog.categories, {})) as { slug: string }[];
    expect(categories.map((c) => c.slug)).toContain("plumbing");
    // The log stream `npx convex logs` and `dev` read.
    const logs = await fetch(`${backend!.url}/api/stream_function_logs?cursor=0`, {
      headers: { Authorization: `Convex ${adminKey}` },
    });
    const { entries } = (await logs.json()) as {
      entries: { identifier: string; udfType: string }[];
    };
    expect(entries).toContainEqual(
      expect.objectContaining({ identifier: "seed:init", udfType: "Action" }),
    );

    // An /api/* route of convex/http.ts, from the pushed http.js.
    const response = await fetch(`${backend!.siteUrl}/api/services/category/plumbing`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });

    // `npx convex data` lists tables with this system query (run here without a CLI process).
    const tables = (await admin().query(anyApi._system.cli.tables.default, {
      paginationOpts: { numItems: 100, cursor: null },
    })) as { page: { name: string }[] };
    expect(tables.page.map((t) => t.name)).toContain("serviceCategories");
    expect((await convex("data", "serviceCategories", "--limit", "1")).stdout).toMatch(/slug/);
    await convex("env", "set", "GHARSEWA_CLI_TEST", "set-by-cli");
    expect((await convex("env", "list")).stdout).toContain("GHARSEWA_CLI_TEST=set-by-cli");

    const zip = path.join(work, "snapshot.zip");
    expect((await convex("export", "--path", zip)).all).toContain("Downloaded snapshot export");
    const archive = readFileSync(zip);
    expect(archive.subarray(0, 4).toString("hex")).toBe("504b0304");
    expect(archive.includes("serviceCategories/documents.jsonl")).toBe(true);
  }, 120_000);

  it("a restart runs the pushed code and keeps the data and environment variables", async () => {
    await stopChild();
    backend = await startChild();
    const http = new ConvexHttpClient(backend.url);
    const categories = (await http.query(anyApi.catalog.categories, {})) as { slug: string }[];
    expect(categories.map((c) => c.slug)).toContain("plumbing");
    const response = await fetch(`${backend.siteUrl}/api/services/category/plumbing`);
    expect(response.status).toBe(200);
    expect((await convex("env", "get", "GHARSEWA_CLI_TEST")).stdout).toContain("set-by-cli");
  }, 60_000);

  it("npx convex import restores an export with its ids, and imports JSONL into a table", async () => {
    // The ids of the users table (creation times are the import's), read as `npx convex data` does.
    const ids = async (table: string) => {
      const { page } = (await admin().query(anyApi._system.cli.tableData.default, {
        table,
        order: "asc",
        paginationOpts: { numItems: 100, cursor: null },
      })) as { page: { _id: string; note?: string }[] };
      return page;
    };
    const users = async () => (await ids("users")).map((d) => d._id);
    const before = await users();
    const restored = await convex("import", "--replace", "--yes", path.join(work, "snapshot.zip"));
    expect(restored.all).toMatch(/Added \d+ documents/);
    expect(before).toHaveLength(1);
    expect(await users()).toEqual(before);

    const lines = path.join(work, "probes.jsonl");
    writeFileSync(lines, '{"n": 1}\n{"n": 2, "note": "two"}\n');
    expect((await convex("import", "--table", "probes", lines)).all).toContain(
      'Added 2 documents to table "probes"',
    );
    expect((await ids("probes")).map((d) => d.note)).toEqual([undefined, "two"]);
    // Refused when the table has documents and no mode says what to do with them.
    await expect(convex("import", "--table", "probes", lines)).rejects.toThrow(
      /already has documents/,
    );
  }, 60_000);

  it("refuses admin endpoints without the admin key, and module paths that leave the push", async () => {
    const push = (headers: Record<string, string>, body: unknown) =>
      fetch(`${backend!.url}/api/deploy2/start_push`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const request = (modulePath: string) => ({
      dryRun: false,
      functions: "convex/",
      appDefinition: {
        definition: null,
        dependencies: [],
        schema: null,
        changedModules: [{ path: modulePath, source: "export {};", environment: "isolate" }],
        unchangedModuleHashes: [],
        udfServerVersion: "1.48.0",
      },
      componentDefinitions: [],
      nodeDependencies: [],
    });
    expect((await push({}, request("a.js"))).status).toBe(401);
    expect((await push({ Authorization: "Convex wrong" }, request("a.js"))).status).toBe(401);
    const admin = { Authorization: `Convex ${adminKey}` };
    for (const bad of ["../escape.js", "/etc/x.js", "a/../../b.js", ".hidden.js", "x.ts"]) {
      const res = await push(admin, request(bad));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "InvalidModules" });
    }
    const env = await fetch(`${backend!.url}/api/update_environment_variables`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ changes: [{ name: "X", value: "y" }] }),
    });
    expect(env.status).toBe(401);
    expect((await fetch(`${backend!.url}/api/v1/get_canonical_urls`)).status).toBe(401);
  });
});
