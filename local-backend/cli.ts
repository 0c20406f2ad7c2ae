// tsx local-backend/cli.ts [--port 3210] [--site-port 3211] [--data .data] [--convex convex]
//   [--serve dist] [--web-port 5173] [--watch] [--vite] [--run seed:init] [--no-demo]
//   [--cors-origin https://partner.example]... [--salvage] [--source]
import { watch } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { RecoveryError } from "./durability/log.ts";
import { FunctionError } from "./engine/engine.ts";
import { HOST, startBackend, type Backend } from "./server.ts";
import { InvalidCorsOrigin } from "./site.ts";
import { signInLines } from "./sign-in-banner.ts";
import { createStaticServer, FRAME_HEADERS } from "./static.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3210" },
    "site-port": { type: "string", default: "3211" },
    data: { type: "string", default: process.env.LOCAL_BACKEND_DATA ?? ".data" },
    convex: { type: "string", default: "convex" },
    serve: { type: "string" },
    "web-port": { type: "string", default: "5173" },
    watch: { type: "boolean", default: false },
    vite: { type: "boolean", default: false },
    run: { type: "string", multiple: true },
    "no-demo": { type: "boolean", default: false },
    "cors-origin": { type: "string", multiple: true },
    salvage: { type: "boolean", default: false },
    source: { type: "boolean", default: false },
  },
});

// @convex-dev/auth says INFO for every account it stores (22 lines on a first start): debug chatter
// here. AUTH_LOG_LEVEL=INFO or DEBUG in the environment or the data directory's env.local brings it back.
process.env.AUTH_LOG_LEVEL ??= "WARN";

const webPort = Number(values["web-port"]);
const webOrigin = `http://${HOST}:${webPort}`;
let backend: Backend;
try {
  backend = await startBackend({
    port: Number(values.port),
    sitePort: Number(values["site-port"]),
    dataDir: values.data,
    convexDir: values.convex,
    webOrigin,
    corsOrigins: values["cors-origin"],
    salvage: values.salvage,
    // --watch serves the sources it watches, whatever `npx convex deploy` pushed before.
    sourceCode: values.source || values.watch,
  });
} catch (error) {
  // A data directory it cannot start from, or a bad option: a message, not a stack trace.
  if (!(error instanceof RecoveryError || error instanceof InvalidCorsOrigin)) throw error;
  console.error(
    error instanceof RecoveryError
      ? `local-backend: cannot start: ${error.message}`
      : error.message,
  );
  process.exit(1);
}

let seeded: { adminCreated?: unknown; adminSetupToken?: unknown } | undefined;
for (const fn of values.run ?? []) {
  if (!(await backend.engine.exists(fn))) {
    console.log(`local-backend: --run ${fn} skipped (no such function yet)`);
    continue;
  }
  try {
    const result = await backend.engine.call(
      "any",
      fn,
      { demo: !values["no-demo"] },
      { identity: null, admin: true },
    );
    if (result.value !== null) console.log(`local-backend: ${fn} →`, JSON.stringify(result.value));
    if (fn === "seed:init") seeded = (result.value ?? {}) as typeof seeded;
  } catch (error) {
    console.error(
      `local-backend: --run ${fn} failed: ${error instanceof FunctionError ? error.message : String(error)}`,
    );
  }
}

let web: Server | undefined;
let vite: { close(): Promise<void> } | undefined;
if (values.vite) {
  process.env.VITE_CONVEX_URL ??= backend.url;
  const { createServer } = await import("vite");
  const server = await createServer({
    server: { host: HOST, port: webPort, strictPort: true, headers: FRAME_HEADERS },
  });
  await server.listen();
  vite = server;
} else if (values.serve) {
  const server = createStaticServer(values.serve);
  web = server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(webPort, HOST, () => resolve());
  });
}

let stopWatching: (() => void) | undefined;
if (values.watch) {
  const convexDir = path.resolve(values.convex);
  let generation = 1;
  let timer: NodeJS.Timeout | undefined;
  const reload = async () => {
    generation += 1;
    const scope = register({ namespace: `convex-gen-${generation}` });
    const parent = pathToFileURL(path.join(convexDir, "index.ts")).href;
    try {
      await backend.reload((file) => scope.import(pathToFileURL(file).href, parent), convexDir);
      console.log(
        `local-backend: reloaded ${path.relative(process.cwd(), convexDir)}/ (generation ${generation})`,
      );
    } catch (error) {
      console.error(
        `local-backend: reload failed, still serving the previous modules:\n  ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const watcher = watch(convexDir, { recursive: true }, (_event, file) => {
    if (!file || file.includes("_generated") || /(^|[.-])(test|spec)[.-]/.test(path.basename(file)))
      return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 150);
  });
  stopWatching = () => watcher.close();
}

console.log(`
  GharSewa local backend (data: ${path.relative(process.cwd(), backend.dataDir) || "."})
  Convex URL:      ${backend.url}
  HTTP actions:    ${backend.siteUrl}
  Outbox:          ${backend.siteUrl}/outbox (every email and SMS sent)
  Wallets:         ${backend.siteUrl}/esewa, ${backend.siteUrl}/khalti (stand-ins of eSewa and Khalti)${web || vite ? `\n  Web app:         ${webOrigin}` : ""}
  Admin key:       ${path.join(path.relative(process.cwd(), backend.dataDir), "admin-key")}
  Functions:       ${backend.pushedCodeDir ? `pushed by the Convex CLI (${path.relative(process.cwd(), backend.pushedCodeDir)}; --source runs ${values.convex}/)` : `${values.convex}/ sources`}
  Convex CLI:      CONVEX_SELF_HOSTED_URL=${backend.url} CONVEX_SELF_HOSTED_ADMIN_KEY=$(cat ${path.join(path.relative(process.cwd(), backend.dataDir), "admin-key")}) npx convex deploy
${web || vite ? `\n${signInLines({ webOrigin, seeded, demo: !values["no-demo"] }).join("\n")}\n` : ""}`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`local-backend: ${signal}, shutting down`);
  stopWatching?.();
  web?.closeAllConnections();
  web?.close();
  await vite?.close();
  await backend.close();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
