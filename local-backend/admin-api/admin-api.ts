// Wires the CLI-facing admin API into a backend: the pushed code to run, the `_system/cli/*`
// functions, and the HTTP endpoints (routes.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TableNumbers } from "../durability/table-numbers.ts";
import type { Engine } from "../engine/engine.ts";
import { EnvVars } from "./env-vars.ts";
import { FunctionLogs } from "./function-logs.ts";
import { PushService } from "./push.ts";
import { handleAdminApi, isAdminApiPath } from "./routes.ts";
import type { SchemaJson } from "./schema-check.ts";
import { ImportService } from "./snapshot-import.ts";
import { SnapshotService } from "./snapshots.ts";
import { systemModules } from "./system-functions.ts";

export { isAdminApiPath };

export interface AdminApiTarget {
  engine: Engine;
  tables: TableNumbers;
  urls(): { convexCloudUrl: string; convexSiteUrl: string };
  /** Runs the modules in `dir` from now on (data untouched). */
  activate(dir: string): Promise<void>;
}

export class AdminApi {
  readonly env: EnvVars;
  readonly push: PushService;
  readonly snapshots: SnapshotService;
  readonly logs = new FunctionLogs();
  readonly imports: ImportService;
  private target?: AdminApiTarget;

  constructor(
    dataDir: string,
    private readonly adminKey: string,
  ) {
    this.env = new EnvVars(dataDir);
    const engine = () => {
      if (!this.target) throw new Error("The admin API is not attached to a backend yet");
      return this.target.engine;
    };
    const documents = function* () {
      const e = engine();
      for (const doc of e.database.documents()) yield { table: e.database.tableOf(doc._id), doc };
    };
    this.push = new PushService({
      dataDir,
      currentSchema: async () => {
        const schema = (await engine().moduleExports("schema"))?.default as
          { export?: () => string } | undefined;
        const text = schema?.export?.();
        return typeof text === "string" ? (JSON.parse(text) as SchemaJson) : null;
      },
      documents,
      tableOf: (id) => {
        try {
          return engine().database.tableOf(id);
        } catch {
          return null;
        }
      },
      activate: (dir) => this.target!.activate(dir),
      environmentVariables: () => this.env.all(),
    });
    this.imports = new ImportService({ engine, tables: () => this.target!.tables });
    this.snapshots = new SnapshotService({
      dataDir,
      currentTs: () => engine().currentTs(),
      documents,
      file: (id) => engine().database.file(id),
    });
  }

  /** The directory of the code the last push deployed, or null. */
  pushedCodeDir(): string | null {
    return this.push.liveDir();
  }

  /** The `_system/cli/*` modules, for the engine's module map. */
  systemModules(): Record<string, Record<string, unknown>> {
    const engine = () => this.target!.engine;
    return systemModules({
      convexDir: () => engine().convexDir,
      moduleExports: (module) => engine().moduleExports(module),
      tableNames: () => {
        const names = new Set(engine().database.indexes().keys());
        for (const doc of engine().database.documents())
          names.add(engine().database.tableOf(doc._id));
        return [...names].sort();
      },
      envVars: () => this.env.list(),
      latestExport: () => this.snapshots.latestExport(),
      imports: () => this.imports.list(),
    });
  }

  attach(target: AdminApiTarget) {
    this.target = target;
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const target = this.target!;
    return handleAdminApi(req, res, url, {
      adminKey: this.adminKey,
      push: this.push,
      env: this.env,
      snapshots: this.snapshots,
      logs: this.logs,
      imports: this.imports,
      urls: target.urls,
      invalidateSystemQueries: () => target.engine.queries.invalidateAll(),
    });
  }
}
