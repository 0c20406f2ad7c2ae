// The `_system/cli/*` queries the Convex CLI subscribes to (`npx convex data`, `env list/get`,
// `run`'s function list, `export`, `import`). They are internal functions: only an admin key runs them.
import path from "node:path";
import { internalQueryGeneric, paginationOptsValidator } from "convex/server";
import { jsonToConvex, v, type JSONValue, type Value } from "convex/values";
import { listModuleFiles } from "../engine/modules.ts";

export interface SystemFunctionDeps {
  convexDir(): string;
  moduleExports(module: string): Promise<Record<string, unknown> | undefined>;
  tableNames(): string[];
  envVars(): { name: string; value: string }[];
  latestExport(): Value;
  imports(): Value[];
}

/** What a module export of a Convex app may carry: a registered function or an HTTP router. */
export type Registered = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  isRouter?: boolean;
  exportArgs?: () => string;
  exportReturns?: () => string;
  getRoutes?: () => [string, string, unknown][];
};

const ANY = '{"type":"any"}';

/** Module path (e.g. `_system/cli/tables`) → its exports. */
export function systemModules(deps: SystemFunctionDeps): Record<string, Record<string, unknown>> {
  return {
    "_system/cli/tables": {
      default: internalQueryGeneric({
        args: { paginationOpts: paginationOptsValidator },
        handler: async () => ({
          page: deps
            .tableNames()
            .filter((name) => !name.startsWith("_"))
            .map((name) => ({ name })),
          isDone: true,
          continueCursor: "end",
        }),
      }),
    },
    "_system/cli/tableData": {
      default: internalQueryGeneric({
        args: {
          table: v.string(),
          order: v.union(v.literal("asc"), v.literal("desc")),
          paginationOpts: paginationOptsValidator,
        },
        handler: async ({ db }, { table, order, paginationOpts }) =>
          await (
            table.startsWith("_") ? db.system.query(table as "_storage") : db.query(table as never)
          )
            .order(order)
            .paginate(paginationOpts),
      }),
    },
    "_system/cli/tableSize": {
      default: internalQueryGeneric({
        args: { tableName: v.string() },
        handler: async ({ db }, { tableName }) =>
          tableName.startsWith("_") ? 0 : (await db.query(tableName as never).collect()).length,
      }),
    },
    "_system/cli/queryEnvironmentVariables": {
      default: internalQueryGeneric({ args: {}, handler: async () => deps.envVars() }),
      get: internalQueryGeneric({
        args: { name: v.string() },
        handler: async (_ctx, { name }) => deps.envVars().find((e) => e.name === name) ?? null,
      }),
    },
    "_system/cli/convexUrl": {
      cloudUrl: internalQueryGeneric({
        args: {},
        handler: async () => process.env.CONVEX_CLOUD_URL ?? null,
      }),
    },
    "_system/cli/modules": {
      apiSpec: internalQueryGeneric({
        args: { componentId: v.optional(v.union(v.string(), v.null())) },
        handler: async () => await apiSpec(deps),
      }),
    },
    "_system/cli/exports": {
      getLatest: internalQueryGeneric({ args: {}, handler: async () => deps.latestExport() }),
    },
    "_system/cli/queryImport": {
      default: internalQueryGeneric({
        args: { importId: v.string() },
        handler: async (_ctx, { importId }) =>
          deps.imports().find((i) => (i as { _id: string })._id === importId) ?? null,
      }),
      list: internalQueryGeneric({ args: {}, handler: async () => deps.imports() }),
    },
  };
}

/** Every function and HTTP route the deployment runs, as Convex's `apiSpec` lists them. */
async function apiSpec(deps: SystemFunctionDeps): Promise<Value[]> {
  const root = deps.convexDir();
  const specs: Value[] = [];
  for (const file of listModuleFiles(root)) {
    const module = path
      .relative(root, file)
      .split(path.sep)
      .join("/")
      .replace(/\.[^./]+$/, "");
    if (module.startsWith("_generated/") || module.startsWith("_deps/")) continue;
    const exports = ((await deps.moduleExports(module)) ?? {}) as Record<string, Registered>;
    for (const [name, fn] of Object.entries(exports)) {
      if (!fn || !(fn.isQuery || fn.isMutation || fn.isAction)) continue;
      specs.push({
        identifier: `${module}.js:${name}`,
        functionType: fn.isQuery ? "Query" : fn.isMutation ? "Mutation" : "Action",
        visibility: { kind: fn.isPublic ? "public" : "internal" },
        args: jsonToConvex(JSON.parse(fn.exportArgs?.() ?? ANY) as JSONValue),
        returns: jsonToConvex(JSON.parse(fn.exportReturns?.() ?? ANY) as JSONValue),
      });
    }
    if (module === "http" && exports.default?.isRouter)
      for (const [routePath, method] of exports.default.getRoutes?.() ?? [])
        specs.push({ functionType: "HttpAction", method, path: routePath });
  }
  return specs;
}
