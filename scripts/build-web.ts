/**
 * `npm start`'s build: `vite build` with its output (a line per file, the service worker's own build,
 * plugin timings: over 200 lines) kept in a log file, so the start shows the banner and not the build.
 * A failed build prints its whole log.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const logFile = path.join(root, "node_modules/.cache/gharsewa/build.log");
mkdirSync(path.dirname(logFile), { recursive: true });
const log = createWriteStream(logFile);
const started = Date.now();
const output: Buffer[] = [];

console.log("Building the web app into dist/…");
const child = spawn(
  path.join(root, "node_modules/.bin/vite"),
  ["build", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  },
);
for (const stream of [child.stdout, child.stderr])
  stream.on("data", (chunk: Buffer) => (output.push(chunk), log.write(chunk)));

const code = await new Promise<number>((resolve) =>
  child.on("close", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
log.end();
if (code !== 0) {
  process.stderr.write(Buffer.concat(output));
  console.error(`The web app's build failed (exit ${code}); its output is above.`);
  process.exit(code);
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`Built in ${seconds} s (the build's output: ${path.relative(root, logFile)}).`);
