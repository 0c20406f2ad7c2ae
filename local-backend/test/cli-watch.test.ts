import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, expect, it } from "vitest";
import { fixtureConvexDir, removeTempDataDirs, tempDataDir } from "./helpers.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
// Inside the repo so the copied modules resolve "convex/server" from node_modules.
const convexDir = path.join(here, `.tmp-watch-${process.pid}`);
afterAll(() => {
  rmSync(convexDir, { recursive: true, force: true });
  removeTempDataDirs();
});

it("--watch reloads changed modules without losing data, keeps serving when a module breaks, and shuts down cleanly", async () => {
  mkdirSync(convexDir, { recursive: true });
  cpSync(fixtureConvexDir, convexDir, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(here, "../cli.ts"),
      "--port",
      "0",
      "--site-port",
      "0",
      "--data",
      tempDataDir(),
      "--convex",
      convexDir,
      "--watch",
      "--run",
      "seed:init",
      "--no-demo",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern);
        if (match) {
          clearInterval(timer);
          resolve(match);
        }
      };
      const timer = setInterval(check, 20);
      setTimeout(() => {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`));
      }, 15_000);
    });
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));

  const [, url] = await waitFor(/Convex URL:\s+(\S+)/);
  const http = new ConvexHttpClient(url);
  expect(await http.query(anyApi.messages.list, { channel: "seed" })).toEqual([
    { body: "plain", author: null },
  ]);
  await http.mutation(anyApi.messages.send, { channel: "w", body: "before reload" });

  writeFileSync(
    path.join(convexDir, "hello.ts"),
    `import { queryGeneric } from "convex/server";\nexport const version = queryGeneric({ args: {}, handler: async () => "v2" });\n`,
  );
  await waitFor(/reloaded .*generation 2/);
  expect(await http.query(anyApi.hello.version, {})).toBe("v2");
  expect(await http.query(anyApi.messages.list, { channel: "w" })).toEqual([
    { body: "before reload", author: null },
  ]);

  const schemaFile = path.join(convexDir, "schema.ts");
  writeFileSync(
    schemaFile,
    readFileSync(schemaFile, "utf8").replace(
      `.index("by_channel", [`,
      `.index("by_body", ["body"]).index("by_channel", [`,
    ),
  );
  writeFileSync(
    path.join(convexDir, "byBody.ts"),
    `import { queryGeneric } from "convex/server";\nimport { v } from "convex/values";\n` +
      `export const find = queryGeneric({ args: { body: v.string() }, handler: async (ctx, { body }) => ` +
      `(await ctx.db.query("messages").withIndex("by_body", (q) => q.eq("body", body)).collect()).map((m) => m.channel) });\n`,
  );
  await waitFor(/reloaded .*generation [34]/);
  await new Promise((resolve) => setTimeout(resolve, 400)); // both files' changes picked up
  expect(await http.query(anyApi.byBody.find, { body: "before reload" })).toEqual(["w"]);

  writeFileSync(path.join(convexDir, "broken.ts"), `export const oops = ;\n`);
  await waitFor(/reload failed, still serving the previous modules/);
  expect(await http.query(anyApi.hello.version, {})).toBe("v2");

  child.kill("SIGTERM");
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(0);
}, 30_000);
