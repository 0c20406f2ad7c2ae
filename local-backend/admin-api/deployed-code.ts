// The code a CLI push deployed, kept in the data directory: each push's bundled modules in
// code/<pushId>/ (as Convex's bundler made them), and code/current.json naming the live one.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";

export type ModuleEnvironment = "isolate" | "node";

export interface PushedModule {
  path: string;
  source: string;
  sourceMap?: string;
  environment: ModuleEnvironment;
}

export interface ModuleHash {
  path: string;
  environment: ModuleEnvironment;
  /** As the CLI computes it: sha256 of source then source map, hex. */
  hash: string;
}

export interface DeployedCode {
  pushId: string;
  modules: ModuleHash[];
  /** The schema module's `export()` (JSON text), null without a schema. */
  schema: string | null;
  udfServerVersion: string;
  pushedAt: number;
}

const MANIFEST = "current.json";

export const codeRoot = (dataDir: string) => path.join(dataDir, "code");
export const codeDir = (dataDir: string, pushId: string) => path.join(codeRoot(dataDir), pushId);
export const newPushId = () => randomBytes(12).toString("hex");

export const moduleHash = (m: Pick<PushedModule, "source" | "sourceMap">) =>
  createHash("sha256")
    .update(m.source)
    .update(m.sourceMap ?? "")
    .digest("hex");

/**
 * A module path the CLI may push: `.js` files in nested folders of letters, digits, `_` and `.`
 * (never a segment starting with a dot), so no path can leave the push's directory.
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.]*$/;
export function isValidModulePath(p: string): boolean {
  if (p.length > 512 || !p.endsWith(".js")) return false;
  const segments = p.split("/");
  return segments.length <= 16 && segments.every((s) => SEGMENT.test(s));
}

/** The live push, or null when the data directory never received one. */
export function readDeployedCode(dataDir: string): DeployedCode | null {
  const file = path.join(codeRoot(dataDir), MANIFEST);
  if (!existsSync(file)) return null;
  const code = JSON.parse(readFileSync(file, "utf8")) as DeployedCode;
  if (!/^[0-9a-f]{24}$/.test(code.pushId) || !existsSync(codeDir(dataDir, code.pushId)))
    throw new Error(`${file} names a push whose code is missing (${code.pushId})`);
  return code;
}

/** Makes `code` the live push: the manifest is replaced atomically and durably. */
export function writeDeployedCode(dataDir: string, code: DeployedCode) {
  const root = codeRoot(dataDir);
  const tmp = path.join(root, `${MANIFEST}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(code, null, 2));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path.join(root, MANIFEST));
  const dirFd = openSync(root, "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** Writes a push's modules (paths already validated) below its own directory. */
export function writeModules(dir: string, modules: PushedModule[]) {
  mkdirSync(dir, { recursive: true });
  // Bundles are ES modules; Node reads `.js` as one only below a package.json saying so.
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  const root = path.resolve(dir) + path.sep;
  for (const m of modules) {
    const file = path.resolve(dir, m.path);
    if (!file.startsWith(root)) throw new Error(`Module path escapes the push: ${m.path}`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, m.source);
    if (m.sourceMap !== undefined) writeFileSync(`${file}.map`, m.sourceMap);
  }
}

/** A module of an earlier push, as the CLI sent it (for modules a new push lists as unchanged). */
export function readModule(dir: string, hash: ModuleHash): PushedModule {
  const file = path.join(dir, hash.path);
  const map = `${file}.map`;
  return {
    path: hash.path,
    environment: hash.environment,
    source: readFileSync(file, "utf8"),
    ...(existsSync(map) ? { sourceMap: readFileSync(map, "utf8") } : {}),
  };
}

/** Removes every push directory but `keep` (the live push and those still staged). */
export function pruneCode(dataDir: string, keep: Set<string>) {
  const root = codeRoot(dataDir);
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    if (name.startsWith(MANIFEST) || keep.has(name)) continue;
    rmSync(path.join(root, name), { recursive: true, force: true });
  }
}
