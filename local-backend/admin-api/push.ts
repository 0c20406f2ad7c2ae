// The CLI's push protocol (`npx convex deploy` / `dev`): start_push stages and analyzes the bundled
// modules, wait_for_schema checks the stored documents against the new schema, finish_push makes the
// push live. Only the push id travels back through the CLI; everything else stays on this side.
import type { Registered } from "./system-functions.ts";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import {
  codeDir,
  isValidModulePath,
  moduleHash,
  newPushId,
  pruneCode,
  readDeployedCode,
  readModule,
  writeDeployedCode,
  writeModules,
  type DeployedCode,
  type ModuleHash,
  type PushedModule,
} from "./deployed-code.ts";
import {
  diffIndexes,
  findSchemaMismatch,
  type IndexDiff,
  type SchemaJson,
  type SchemaMismatch,
} from "./schema-check.ts";

export class PushError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface PushDeps {
  dataDir: string;
  /** The schema the backend runs now (export() JSON), null without one. */
  currentSchema(): Promise<SchemaJson | null>;
  /** Every stored document with its table. */
  documents(): Iterable<{ table: string; doc: Record<string, unknown> }>;
  tableOf(id: string): string | null;
  /** Swaps the running modules for those in `dir` (data untouched). */
  activate(dir: string): Promise<void>;
  environmentVariables(): Record<string, string>;
}

const moduleConfig = z.object({
  path: z.string(),
  source: z.string(),
  sourceMap: z.string().optional(),
  environment: z.enum(["isolate", "node"]),
});
const startPushRequest = z.object({
  adminKey: z.string().optional(),
  dryRun: z.boolean(),
  functions: z.string().max(1024),
  appDefinition: z.object({
    definition: moduleConfig.nullable(),
    dependencies: z.array(z.string()),
    schema: moduleConfig.nullable(),
    changedModules: z.array(moduleConfig).max(10_000),
    unchangedModuleHashes: z
      .array(
        z.object({
          path: z.string(),
          environment: z.enum(["isolate", "node"]),
          sha256: z.string(),
        }),
      )
      .max(10_000),
    udfServerVersion: z.string().max(64),
  }),
  componentDefinitions: z.array(z.unknown()),
  nodeDependencies: z.array(z.unknown()),
});
const pushReference = z.object({
  schemaChange: z.object({ schemaIds: z.object({ pushId: z.string().regex(/^[0-9a-f]{24}$/) }) }),
});
const finishRequest = z.object({ startPush: pushReference, dryRun: z.boolean() });

interface AnalyzedFunction {
  name: string;
  pos: null;
  udfType: "Query" | "Mutation" | "Action";
  visibility: { kind: "public" | "internal" };
  args: string | null;
  returns: string | null;
}

interface Staged {
  pushId: string;
  /** The live push when this one was staged: another push finishing first is a race. */
  basePushId: string | null;
  dir: string;
  modules: ModuleHash[];
  schema: SchemaJson | null;
  schemaText: string | null;
  indexDiff: IndexDiff;
  crons: string[];
  udfServerVersion: string;
}

const MAX_STAGED = 3;

export class PushService {
  private staged = new Map<string, Staged>();
  private live: DeployedCode | null;
  private liveCrons: string[] = [];

  constructor(private readonly deps: PushDeps) {
    this.live = readDeployedCode(deps.dataDir);
    pruneCode(deps.dataDir, new Set(this.live ? [this.live.pushId] : []));
  }

  /** The directory of the live push's modules, or null when none was pushed. */
  liveDir(): string | null {
    return this.live ? codeDir(this.deps.dataDir, this.live.pushId) : null;
  }

  /** What `get_config_hashes` answers: lets the CLI send only the modules that changed. */
  configHashes() {
    return {
      config: { functions: "convex/", authInfo: [] },
      moduleHashes: this.live?.modules ?? [],
      nodeDependencies: [],
      udfServerVersion: this.live?.udfServerVersion ?? null,
    };
  }

  /** start_push (and, with `keep` false, evaluate_push / evaluate_schema): stage and analyze. */
  async start(body: unknown, keep: boolean) {
    const request = parse(startPushRequest, body);
    const app = request.appDefinition;
    if (request.componentDefinitions.length > 0 || app.dependencies.length > 0)
      throw new PushError(
        "ComponentsNotSupported",
        "The local backend does not run Convex components (convex.config.ts with app.use()).",
      );
    if (request.nodeDependencies.length > 0)
      throw new PushError(
        "ExternalPackagesNotSupported",
        "The local backend does not install external packages (node.externalPackages in convex.json).",
      );
    const modules = this.collectModules(app.changedModules, app.unchangedModuleHashes);
    if (app.schema) {
      if (app.schema.path !== "schema.js")
        throw new PushError("InvalidModules", "The schema module must be schema.js");
      modules.push(app.schema);
    }
    const pushId = newPushId();
    const dir = codeDir(this.deps.dataDir, pushId);
    writeModules(dir, modules);
    try {
      const analysis = await analyze(dir, modules);
      const current = await this.deps.currentSchema();
      const staged: Staged = {
        pushId,
        basePushId: this.live?.pushId ?? null,
        dir,
        modules: modules
          .filter((m) => m.path !== "schema.js")
          .map((m) => ({ path: m.path, environment: m.environment, hash: moduleHash(m) })),
        schema: analysis.schema,
        schemaText: analysis.schemaText,
        indexDiff: diffIndexes(current, analysis.schema),
        crons: analysis.crons,
        udfServerVersion: app.udfServerVersion,
      };
      if (keep) this.keepStaged(staged);
      else pruneCode(this.deps.dataDir, this.keptDirs());
      return { staged, analysis };
    } catch (error) {
      pruneCode(this.deps.dataDir, this.keptDirs());
      throw error;
    }
  }

  async startPush(body: unknown) {
    const { staged, analysis } = await this.start(body, true);
    return {
      environmentVariables: this.deps.environmentVariables(),
      externalDepsId: null,
      componentDefinitionPackages: {},
      appAuth: analysis.auth,
      analysis: {
        "": {
          definition: {
            path: "",
            definitionType: { type: "app" },
            childComponents: [],
            httpMounts: {},
            exports: { type: "branch", branch: [] },
          },
          schema: analysis.schema,
          functions: analysis.functions,
          udfConfig: {
            serverVersion: staged.udfServerVersion,
            importPhaseRngSeed: null,
            importPhaseUnixTimestamp: null,
          },
        },
      },
      app: {
        definitionPath: "",
        componentPath: "",
        args: {},
        childComponents: {},
        httpRoutes: { httpModuleRoutes: analysis.httpRoutes, mounts: [] },
        exports: {},
      },
      schemaChange: this.schemaChange(staged),
    };
  }

  async evaluatePush(body: unknown) {
    const { staged } = await this.start(body, false);
    return { schemaChange: this.schemaChange(staged) };
  }

  /** evaluate_schema: what the push would do to each table and index (the CLI's pre-push checks). */
  async evaluateSchema(body: unknown) {
    const { staged } = await this.start(body, false);
    const counts = new Map<string, { numDocs: number; sizeBytes: number }>();
    for (const { table, doc } of this.deps.documents()) {
      const c = counts.get(table) ?? { numDocs: 0, sizeBytes: 0 };
      c.numDocs += 1;
      c.sizeBytes += JSON.stringify(doc, (_k, v: unknown) =>
        typeof v === "bigint" ? v.toString() : v,
      ).length;
      counts.set(table, c);
    }
    const tableOfIndex = (name: string) => name.slice(0, name.indexOf("."));
    const unchanged = diffIndexes(null, staged.schema).added_indexes.filter(
      (i) => !staged.indexDiff.added_indexes.some((a) => JSON.stringify(a) === JSON.stringify(i)),
    );
    const prediction = (change: "added" | "identical" | "dropped") => (i: { name: string }) => ({
      ...i,
      change,
      needsBackfill: change === "added",
      numDocs: counts.get(tableOfIndex(i.name))?.numDocs ?? 0,
    });
    return {
      componentSchemaEvaluations: {
        "": {
          definitionPath: "",
          schemaValidation: staged.schema?.schemaValidation ?? false,
          tables: (staged.schema?.tables ?? []).map((t) => ({
            name: t.tableName,
            outcome: staged.schema?.schemaValidation ? "mustWalk" : "notValidated",
            numDocs: counts.get(t.tableName)?.numDocs ?? 0,
            sizeBytes: counts.get(t.tableName)?.sizeBytes ?? 0,
          })),
          indexes: [
            ...staged.indexDiff.added_indexes.map(prediction("added")),
            ...unchanged.map(prediction("identical")),
            ...staged.indexDiff.removed_indexes.map(prediction("dropped")),
          ],
        },
      },
      newComponentDefinitions: [],
    };
  }

  /** wait_for_schema: the stored documents against the staged schema (indexes need no backfill here). */
  waitForSchema(body: unknown) {
    const staged = this.stagedFor(parse(pushReference, body));
    if (staged === null) return { type: "raceDetected" };
    const mismatch = this.mismatch(staged);
    return mismatch
      ? { type: "failed", error: mismatch.error, componentPath: "", tableName: mismatch.tableName }
      : { type: "complete" };
  }

  /** finish_push: makes the staged push live (unless a dry run) and says what changed. */
  async finishPush(body: unknown) {
    const request = parse(finishRequest, body);
    const staged = this.stagedFor(request.startPush);
    if (staged === null)
      throw new PushError(
        "RaceDetected",
        "Another push finished after this one started, or this push is unknown. Push again.",
        409,
      );
    const previous = this.live;
    const previousSchema = await this.deps.currentSchema();
    const diff = {
      authDiff: { added: [], removed: [] },
      definitionDiffs: {},
      componentDiffs: {
        "": {
          diffType: { type: previous ? "modify" : "create" },
          moduleDiff: {
            added: staged.modules
              .filter((m) => !previous?.modules.some((p) => p.path === m.path))
              .map((m) => m.path),
            removed: (previous?.modules ?? [])
              .filter((p) => !staged.modules.some((m) => m.path === p.path))
              .map((p) => p.path),
          },
          udfConfigDiff: previous
            ? { previous_version: previous.udfServerVersion, next_version: staged.udfServerVersion }
            : null,
          cronDiff: {
            added: staged.crons.filter((c) => !this.liveCrons.includes(c)),
            updated: [],
            deleted: this.liveCrons.filter((c) => !staged.crons.includes(c)),
          },
          indexDiff: staged.indexDiff,
          schemaDiff: {
            previous_schema: previousSchema ? JSON.stringify(previousSchema) : null,
            next_schema: staged.schemaText,
          },
        },
      },
    };
    if (request.dryRun) return diff;
    const mismatch = this.mismatch(staged);
    if (mismatch) throw new PushError("SchemaValidationFailed", mismatch.error);
    await this.deps.activate(staged.dir);
    const code: DeployedCode = {
      pushId: staged.pushId,
      modules: staged.modules,
      schema: staged.schemaText,
      udfServerVersion: staged.udfServerVersion,
      pushedAt: Date.now(),
    };
    writeDeployedCode(this.deps.dataDir, code);
    this.live = code;
    this.liveCrons = staged.crons;
    this.staged.delete(staged.pushId);
    pruneCode(this.deps.dataDir, this.keptDirs());
    return diff;
  }

  private mismatch(staged: Staged): SchemaMismatch | null {
    return findSchemaMismatch(staged.schema, this.deps.documents(), (id) => this.deps.tableOf(id));
  }

  private schemaChange(staged: Staged) {
    return {
      allocatedComponentIds: null,
      schemaIds: { pushId: staged.pushId },
      indexDiffs: { "": staged.indexDiff },
    };
  }

  private stagedFor(reference: z.infer<typeof pushReference>): Staged | null {
    const staged = this.staged.get(reference.schemaChange.schemaIds.pushId);
    if (!staged || staged.basePushId !== (this.live?.pushId ?? null)) return null;
    return staged;
  }

  private keepStaged(staged: Staged) {
    this.staged.set(staged.pushId, staged);
    while (this.staged.size > MAX_STAGED) this.staged.delete(this.staged.keys().next().value!);
    pruneCode(this.deps.dataDir, this.keptDirs());
  }

  private keptDirs(): Set<string> {
    return new Set([...(this.live ? [this.live.pushId] : []), ...this.staged.keys()]);
  }

  /** The push's modules: those sent, and the unchanged ones copied from the live push. */
  private collectModules(
    changed: PushedModule[],
    unchanged: { path: string; environment: "isolate" | "node"; sha256: string }[],
  ): PushedModule[] {
    const modules: PushedModule[] = [];
    const seen = new Set<string>();
    const add = (m: PushedModule) => {
      if (!isValidModulePath(m.path) || m.path === "schema.js" || m.path.startsWith("_system/"))
        throw new PushError("InvalidModules", `Invalid module path: ${JSON.stringify(m.path)}`);
      if (seen.has(m.path)) throw new PushError("InvalidModules", `Module pushed twice: ${m.path}`);
      seen.add(m.path);
      modules.push(m);
    };
    changed.forEach(add);
    const liveDir = this.liveDir();
    for (const u of unchanged) {
      const known = this.live?.modules.find(
        (m) => m.path === u.path && m.environment === u.environment && m.hash === u.sha256,
      );
      if (!known || !liveDir)
        throw new PushError(
          "InvalidModules",
          `Module ${JSON.stringify(u.path)} is listed as unchanged but the deployment does not have it. Push again.`,
        );
      add(readModule(liveDir, known));
    }
    return modules;
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new PushError(
      "BadPushRequest",
      `Malformed request: ${result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")}`,
    );
  return result.data;
}

interface Analysis {
  functions: Record<
    string,
    { functions: AnalyzedFunction[]; httpRoutes: unknown; cronSpecs: unknown; sourceMapped: null }
  >;
  httpRoutes: { path: string; method: string }[] | null;
  crons: string[];
  schema: SchemaJson | null;
  schemaText: string | null;
  auth: unknown[];
}

/** A module export as a push analyses it: also cron tables, the auth config and the schema. */
type PushedExport = Registered & {
  crons?: Record<string, unknown>;
  export?: () => string;
  providers?: unknown[];
};

/**
 * Evaluates every module the way Convex analyzes a push (imports it and reads its exports): a module
 * that throws at import time, or a schema that does not evaluate, fails the push with its error.
 */
async function analyze(dir: string, modules: PushedModule[]): Promise<Analysis> {
  const analysis: Analysis = {
    functions: {},
    httpRoutes: null,
    crons: [],
    schema: null,
    schemaText: null,
    auth: [],
  };
  for (const m of modules) {
    if (m.path.startsWith("_deps/")) continue;
    let exports: Record<string, PushedExport | undefined>;
    try {
      exports = (await import(pathToFileURL(path.join(dir, m.path)).href)) as typeof exports;
    } catch (error) {
      throw new PushError(
        "InvalidModules",
        `Loading the pushed modules encountered the following error:\nFailed to analyze ${m.path}: ${describeImportError(error)}`,
      );
    }
    if (m.path === "schema.js") {
      const text = exports.default?.export?.();
      if (typeof text !== "string")
        throw new PushError("InvalidSchema", "schema.js must export default defineSchema(...)");
      analysis.schemaText = text;
      analysis.schema = JSON.parse(text) as SchemaJson;
      continue;
    }
    const functions: AnalyzedFunction[] = [];
    for (const [name, fn] of Object.entries(exports)) {
      if (!fn || !(fn.isQuery || fn.isMutation || fn.isAction)) continue;
      functions.push({
        name,
        pos: null,
        udfType: fn.isQuery ? "Query" : fn.isMutation ? "Mutation" : "Action",
        visibility: { kind: fn.isPublic ? "public" : "internal" },
        args: fn.exportArgs?.() ?? null,
        returns: fn.exportReturns?.() ?? null,
      });
    }
    let httpRoutes: unknown = null;
    if (m.path === "http.js" && exports.default?.isRouter) {
      const routes = exports.default.getRoutes?.() ?? [];
      analysis.httpRoutes = routes.map(([routePath, method]) => ({ path: routePath, method }));
      httpRoutes = routes.map(([routePath, method]) => ({
        route: { path: routePath, method },
        pos: null,
      }));
    }
    let cronSpecs: unknown = null;
    if (m.path === "crons.js" && exports.default?.crons) {
      analysis.crons = Object.keys(exports.default.crons);
      cronSpecs = analysis.crons;
    }
    if (m.path === "auth.config.js" && Array.isArray(exports.default?.providers))
      analysis.auth = exports.default.providers.filter(isAuthProvider);
    analysis.functions[m.path] = { functions, httpRoutes, cronSpecs, sourceMapped: null };
  }
  return analysis;
}

/** The providers the CLI understands: OIDC ({domain, applicationID}) and customJwt. */
function isAuthProvider(p: unknown): boolean {
  if (typeof p !== "object" || p === null) return false;
  const r = p as Record<string, unknown>;
  return r.type === "customJwt"
    ? typeof r.issuer === "string" && typeof r.jwks === "string" && typeof r.algorithm === "string"
    : typeof r.domain === "string" && typeof r.applicationID === "string";
}

/** The error and its stack frames in the pushed code (not the backend's own frames). */
function describeImportError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line) && !/node:internal|local-backend[\\/]/.test(line));
  return [`Uncaught ${error.name}: ${error.message}`, ...frames].join("\n");
}
