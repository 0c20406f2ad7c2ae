/**
 * `npm run i18n`: compiles the message catalogues (paraglide.config.ts) unless the compiled output
 * is newer than every catalogue and the inlang settings — lint, typecheck and test run it first.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { compile } from "@inlang/paraglide-js";
import { paraglideOptions } from "../paraglide.config.ts";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, paraglideOptions.outdir, "messages.js");

function newestSource(): number {
  const dir = path.join(root, "src/i18n/messages");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(dir, f));
  files.push(
    path.join(root, "project.inlang/settings.json"),
    path.join(root, "paraglide.config.ts"),
  );
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestSource()) {
  await compile({
    ...paraglideOptions,
    project: path.join(root, paraglideOptions.project),
    outdir: path.join(root, paraglideOptions.outdir),
  });
}
