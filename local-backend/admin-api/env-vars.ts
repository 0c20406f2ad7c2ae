// Deployment environment variables set with `npx convex env set/remove` (or the push's
// environmentVariables): kept in <dataDir>/environment-variables.json, exposed to functions as
// process.env on top of env.local.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { z } from "zod";

/** Convex's rules: a letter first, then letters, digits and `_`, at most 40; values up to 8 KiB. */
const NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
const MAX_VALUE_BYTES = 8 * 1024;
const MAX_VARIABLES = 100;
const BUILT_IN = new Set(["CONVEX_CLOUD_URL", "CONVEX_SITE_URL"]);

export const envChanges = z.object({
  changes: z.array(z.object({ name: z.string(), value: z.string().nullish() })).max(MAX_VARIABLES),
});

export class EnvVarError extends Error {}

export class EnvVars {
  private vars: Record<string, string>;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, "environment-variables.json");
    this.vars = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, "utf8")) as Record<string, string>)
      : {};
    Object.assign(process.env, this.vars);
  }

  list(): { name: string; value: string }[] {
    return Object.keys(this.vars)
      .sort()
      .map((name) => ({ name, value: this.vars[name] }));
  }

  get(name: string): string | undefined {
    return Object.hasOwn(this.vars, name) ? this.vars[name] : undefined;
  }

  all(): Record<string, string> {
    return { ...this.vars };
  }

  /** Applies every change or none (a value of null/undefined removes the variable). */
  update(changes: z.infer<typeof envChanges>["changes"]) {
    const next = { ...this.vars };
    for (const { name, value } of changes) {
      if (!NAME.test(name))
        throw new EnvVarError(
          `Environment variable name "${name.slice(0, 64)}" is invalid: it must start with a letter and contain only letters, numbers and underscores (at most 40 characters).`,
        );
      if (BUILT_IN.has(name))
        throw new EnvVarError(`${name} is a built-in environment variable and cannot be changed.`);
      if (value === null || value === undefined) delete next[name];
      else if (Buffer.byteLength(value) > MAX_VALUE_BYTES)
        throw new EnvVarError(`Environment variable ${name} is longer than 8 KiB.`);
      else next[name] = value;
    }
    if (Object.keys(next).length > MAX_VARIABLES)
      throw new EnvVarError(`A deployment has at most ${MAX_VARIABLES} environment variables.`);
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, JSON.stringify(next, null, 2));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    for (const name of Object.keys(this.vars)) if (!(name in next)) delete process.env[name];
    Object.assign(process.env, next);
    this.vars = next;
  }
}
