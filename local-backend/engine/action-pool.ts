// Actions run apart from queries and mutations, as Convex runs them in isolates: a bounded pool of
// worker threads (engine/action-worker.ts), each importing the deployment's modules and running one
// top-level action at a time (with the actions it calls through ctx.runAction). A CPU-bound action
// delays only itself and the actions queued behind a full pool, never the main thread's event loop.
// HTTP actions run there too (through convex/server's invokeHttpAction), several at a time on a worker:
// their request bodies are pulled from the socket chunk by chunk and their response bodies from the
// worker. Past its time limit a run fails at once and its worker takes no more work: the worker is
// terminated (its code stops, as on Convex) once the other runs it holds have ended or reached their
// own limits, and HTTP actions it had not begun go to another worker.
import { openAsBlob } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SHARE_ENV, Worker } from "node:worker_threads";
import { ConvexError, convexToJson, type JSONValue, type Value } from "convex/values";
import { freeSlotsOf, hashSlots } from "./worker-pbkdf2.ts";

export type ConsoleLevel = "log" | "info" | "warn" | "error" | "debug";

/** What an action threw, across the thread boundary. */
export type ThrownError =
  | { kind: "error"; name: string; message: string; stack: string; data?: string }
  | { kind: "value"; text: string };

/** Messages from the pool to a worker. */
export type FromPool =
  | { type: "run"; run: number; file: string; name: string; requestId: string; args: string }
  | {
      type: "http";
      run: number;
      /** The http module's file; the route is looked up in its router by method and path. */
      file: string;
      method: string;
      url: string;
      pathname: string;
      /** The socket's raw headers: name, value, name, value… */
      headers: string[];
      hasBody: boolean;
    }
  /** The next chunk of a streamed response body, please (answered by `httpChunk`). */
  | { type: "httpPull"; run: number }
  | { type: "httpCancel"; run: number }
  | { type: "reply"; call: number; ok: true; value: unknown }
  | { type: "reply"; call: number; ok: false; message: string; data?: JSONValue };

/** Messages from a worker to the pool. */
export type ToPool =
  | { type: "ready" }
  /** The run's module is imported: its function starts (and a top-level action's time limit with it). */
  | { type: "started"; run: number }
  | { type: "done"; run: number; ok: true; result: string }
  | { type: "done"; run: number; ok: false; error: ThrownError }
  | { type: "log"; run: number | undefined; level: ConsoleLevel; line: string }
  | { type: "asyncSyscall"; call: number; run: number; op: string; args: string }
  | {
      type: "storeBlob";
      call: number;
      run: number;
      /** The Blob's bytes, or the file it reads (a request body staged by the site port). */
      bytes: ArrayBuffer | null;
      file?: string;
      contentType: string;
      options: Record<string, unknown>;
    }
  | { type: "getBlob"; call: number; run: number; storageId: string }
  /** The next chunk of an HTTP action's request body (answered with `{bytes}` or null at its end). */
  | { type: "bodyPull"; call: number; run: number }
  /** The rest of the request body staged in a file (answered with its path). */
  | { type: "bodyFile"; call: number; run: number; contentType: string }
  | {
      type: "httpHead";
      run: number;
      status: number;
      statusText: string;
      headers: [string, string][];
      /** The whole body (none: null), unless `stream`: then it comes chunk by chunk on `httpPull`. */
      whole: string | ArrayBuffer | null;
      stream: boolean;
    }
  | { type: "httpChunk"; run: number; chunk: ArrayBuffer | null; error?: string };

/** What the engine answers one run's syscalls with, in that run's own context. */
export interface ActionHost {
  /** `Convex.asyncSyscall` of the action; `worker` is where it runs (ctx.runAction runs there too). */
  asyncSyscall(op: string, args: string, worker: ActionWorker): Promise<string>;
  /** `ctx.storage.store` / `ctx.storage.get` (Convex's `storage/storeBlob` and `storage/getBlob`). */
  storeBlob(blob: Blob, options: Record<string, unknown>, worker: ActionWorker): Promise<unknown>;
  getBlob(storageId: string, worker: ActionWorker): Promise<Blob | null>;
  /** A console line of the action, already formatted. */
  log(level: ConsoleLevel, line: string): void;
}

export interface ActionCall {
  /** The module's file and the export's name. */
  file: string;
  name: string;
  requestId: string;
  /** The arguments as invokeAction takes them: JSON text of `[args]`. */
  args: string;
  host: ActionHost;
}

/** An HTTP action's request body, read from the socket as the handler asks for it (null: its end). */
export interface RequestBody {
  next(): Promise<Uint8Array | null>;
  /** The rest of the body in a file (`request.blob()`, read from disk), as the file's path. */
  stage(type: string): Promise<string>;
}

export interface HttpCall {
  /** The http module's file. */
  file: string;
  method: string;
  url: string;
  pathname: string;
  headers: string[];
  /** None for GET and HEAD. */
  body: RequestBody | null;
  host: ActionHost;
  /** Aborted past the action's time limit (the engine answers the timeout): the handler is stopped. */
  signal?: AbortSignal;
}

/** Convex's time limit of a top-level action: past `ms` its worker is terminated and `error()` thrown. */
export interface ActionLimit {
  ms: number;
  error(): Error;
}

interface Run {
  host: ActionHost;
  /** A top-level run's time limit, armed when its function starts. */
  limit?: ActionLimit;
  resolve(result: string): void;
  reject(error: unknown): void;
  http?: HttpRun;
}

interface HttpRun {
  /** The worker has begun it; one that has not can go to another worker. */
  started: boolean;
  /** Sends it to a worker. */
  dispatch(worker: ActionWorker): void;
  body: RequestBody | null;
  head(message: Extract<ToPool, { type: "httpHead" }>): void;
  chunk(message: Extract<ToPool, { type: "httpChunk" }>): void;
}

/** The entry each worker starts from: tsx's loader, so that `convex/` sources in TypeScript import. */
function bootstrap(): string {
  const require = createRequire(import.meta.url);
  const tsxApi = path.join(
    path.dirname(require.resolve("tsx/package.json")),
    "dist/esm/api/index.mjs",
  );
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "action-worker.ts");
  return (
    `import(${JSON.stringify(pathToFileURL(tsxApi).href)})` +
    `.then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); })`
  );
}

/** An idle worker ends after this long unless it is the last one (a new one takes seconds to start). */
export const IDLE_WORKER_MS = 60_000;
/**
 * A run waits this long for a busy worker before another is started: a new worker takes seconds of
 * CPU to import the modules, more than most actions run.
 */
export const SPAWN_AFTER_MS = 250;
/** An action's heap at most (Convex's limit for Node.js actions); past it its worker ends. */
export const ACTION_HEAP_MB = 512;

/** The process's password-hashing slots, shared by every worker of every pool (worker-pbkdf2.ts). */
const HASH_SLOTS = hashSlots();

export class ActionWorker {
  readonly thread: Worker;
  readonly threadId: number;
  ready = false;
  /** A top-level action runs here. */
  busy = false;
  /** The run of that top-level action. */
  top: number | undefined;
  /** Its modules are no longer the deployment's: it ends once idle. */
  retired = false;
  readonly runs = new Map<number, Run>();
  deadline: NodeJS.Timeout | undefined;
  idle: NodeJS.Timeout | undefined;

  constructor(source: string) {
    this.thread = new Worker(source, {
      eval: true,
      env: SHARE_ENV,
      resourceLimits: { maxOldGenerationSizeMb: ACTION_HEAP_MB },
      workerData: { hashSlots: HASH_SLOTS },
    });
    this.threadId = this.thread.threadId;
    this.thread.unref();
  }

  post(message: FromPool, transfer?: ArrayBuffer[]) {
    this.thread.postMessage(message, transfer);
  }
}

export class ActionPool {
  private readonly workers = new Set<ActionWorker>();
  /** Top-level runs waiting for an idle worker, oldest first. */
  private readonly queue: ((worker: ActionWorker) => void)[] = [];
  /** HTTP actions waiting for a worker to be ready, oldest first. */
  private readonly httpQueue: ((worker: ActionWorker) => void)[] = [];
  private nextRun = 0;
  private source: string | undefined;
  private closed = false;
  private spawnTimer: NodeJS.Timeout | undefined;
  /** Called when a worker is ready (`warm` waits on it). */
  private started: (() => void)[] = [];

  constructor(
    /** Workers at most (each holds its own copy of the modules). */
    readonly size: number,
  ) {}

  /** The deployment's modules changed: new workers import them; running ones finish on what they have. */
  newModules() {
    for (const worker of this.workers) {
      worker.retired = true;
      if (!worker.busy && worker.runs.size === 0) this.end(worker);
    }
  }

  /** Resolves once `count` workers (at most the pool's size) are started and idle. */
  async warm(count = 1) {
    const target = Math.min(count, this.size);
    while (this.workers.size < target && !this.closed) this.spawn();
    while (!this.closed && [...this.workers].filter((w) => w.ready).length < target)
      await new Promise<void>((resolve) => this.started.push(resolve));
  }

  /** Worker threads alive (starting, idle or running). */
  get threads(): number {
    return this.workers.size;
  }

  /** Top-level actions running now. */
  get running(): number {
    let n = 0;
    for (const worker of this.workers) if (worker.busy) n++;
    return n;
  }

  /** Runs a top-level action on an idle worker (waiting for one), under `limit`. Resolves to its JSON result. */
  run(call: ActionCall, limit: ActionLimit): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.queue.push((worker) => {
        worker.busy = true;
        clearTimeout(worker.idle);
        worker.top = this.start(worker, call, { host: call.host, limit, resolve, reject });
      });
      this.pump();
    });
  }

  /** Runs an action that `worker`'s action called (ctx.runAction): on the same worker, within its limit. */
  runNested(worker: ActionWorker, call: ActionCall): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (!this.workers.has(worker))
        return reject(new Error("Transient error while executing action"));
      this.start(worker, call, { host: call.host, resolve, reject });
    });
  }

  /**
   * Runs an HTTP action on the least loaded ready worker (one running no top-level action first).
   * Resolves to its Response once the handler returned it; a streamed body is pulled from the worker.
   * When `call.signal` aborts, the run ends and its worker is stopped (`stop`).
   */
  runHttp(call: HttpCall): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      const id = this.nextRun++;
      /** The worker it was sent to last; none while it waits for one. */
      let on: ActionWorker | undefined;
      let settled = false;
      const pulls: ((message: Extract<ToPool, { type: "httpChunk" }>) => void)[] = [];
      const ended = (error?: unknown) => {
        settled = true;
        call.signal?.removeEventListener("abort", aborted);
        reject(error);
        for (const pull of pulls.splice(0))
          pull({
            type: "httpChunk",
            run: id,
            chunk: null,
            error:
              error === undefined
                ? undefined
                : error instanceof Error
                  ? error.message
                  : String(error),
          });
      };
      const run: Run = {
        host: call.host,
        resolve: () => ended(),
        reject: ended,
        http: {
          started: false,
          dispatch: (worker) => {
            if (settled) return;
            on = worker;
            clearTimeout(worker.idle);
            worker.runs.set(id, run);
            worker.post({
              type: "http",
              run: id,
              file: call.file,
              method: call.method,
              url: call.url,
              pathname: call.pathname,
              headers: call.headers,
              hasBody: call.body !== null,
            });
          },
          body: call.body,
          head: (head) => resolve(responseOf(head, on!, pulls)),
          chunk: (message) => pulls.shift()?.(message),
        },
      };
      const aborted = () => {
        const worker = on !== undefined && on.runs.delete(id) ? on : undefined;
        ended(call.signal!.reason);
        if (worker) this.stop(worker);
      };
      if (call.signal?.aborted) return reject(call.signal.reason);
      call.signal?.addEventListener("abort", aborted, { once: true });
      this.httpQueue.push((worker) => run.http!.dispatch(worker));
      this.pump();
    });
  }

  /** Stops every worker. Their runs never settle, as if the process had stopped: nothing is written after. */
  close() {
    this.closed = true;
    clearTimeout(this.spawnTimer);
    for (const resolve of this.started.splice(0)) resolve();
    for (const worker of [...this.workers]) this.end(worker);
    this.queue.length = 0;
    this.httpQueue.length = 0;
  }

  private start(worker: ActionWorker, call: ActionCall, run: Run): number {
    const id = this.nextRun++;
    worker.runs.set(id, run);
    worker.post({
      type: "run",
      run: id,
      file: call.file,
      name: call.name,
      requestId: call.requestId,
      args: call.args,
    });
    return id;
  }

  private pump() {
    while (this.queue.length > 0) {
      const idle = [...this.workers].find((w) => w.ready && !w.busy && !w.retired);
      if (idle === undefined) break;
      this.queue.shift()!(idle);
    }
    let onBusy = false;
    while (this.httpQueue.length > 0) {
      let least: ActionWorker | undefined;
      for (const w of this.workers)
        if (w.ready && !w.retired && (least === undefined || load(w) < load(least))) least = w;
      if (least === undefined) break;
      onBusy ||= least.busy;
      this.httpQueue.shift()!(least);
    }
    if (this.closed) return;
    if (this.httpQueue.length > 0 && this.live() === 0) return this.spawn();
    // An HTTP action shares a worker with a top-level action only while the pool cannot grow.
    if (onBusy && this.live() < this.size && this.live() === this.readyCount()) this.spawn();
    if (this.queue.length === 0) return;
    // The first worker starts at once; more only for runs that waited SPAWN_AFTER_MS.
    if (this.live() === 0) return this.spawn();
    this.spawnTimer ??= setTimeout(() => {
      this.spawnTimer = undefined;
      this.grow();
    }, SPAWN_AFTER_MS);
    this.spawnTimer.unref();
  }

  /** Starts workers for the runs waiting beyond those that starting workers will take, up to the size. */
  private grow() {
    if (this.closed) return;
    let starting = 0;
    for (const worker of this.workers) if (!worker.retired && !worker.ready) starting++;
    for (let waiting = this.queue.length - starting; waiting > 0; waiting--) {
      if (this.live() >= this.size) return;
      this.spawn();
    }
  }

  private readyCount(): number {
    let n = 0;
    for (const worker of this.workers) if (!worker.retired && worker.ready) n++;
    return n;
  }

  private live(): number {
    let n = 0;
    for (const worker of this.workers) if (!worker.retired) n++;
    return n;
  }

  private spawn() {
    this.source ??= bootstrap();
    const worker = new ActionWorker(this.source);
    this.workers.add(worker);
    worker.thread.on("message", (message: ToPool) => this.received(worker, message));
    worker.thread.on("error", (error) =>
      this.fail(
        worker,
        (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new Error(`JavaScript execution ran out of memory (maximum: ${ACTION_HEAP_MB} MiB)`)
          : error,
      ),
    );
    worker.thread.on("exit", (code) => {
      freeSlotsOf(HASH_SLOTS, worker.threadId);
      this.fail(
        worker,
        new Error(`Transient error while executing action (worker exited ${code})`),
      );
    });
  }

  private received(worker: ActionWorker, message: ToPool) {
    switch (message.type) {
      case "ready":
        worker.ready = true;
        for (const resolve of this.started.splice(0)) resolve();
        this.pump();
        return;
      case "started": {
        const run = worker.runs.get(message.run);
        if (run?.http) run.http.started = true;
        const limit = run?.limit;
        if (limit !== undefined)
          worker.deadline = setTimeout(() => this.expire(worker, limit.error()), limit.ms);
        return;
      }
      case "done": {
        const run = worker.runs.get(message.run);
        worker.runs.delete(message.run);
        if (message.run === worker.top) this.release(worker);
        else if (!worker.busy && worker.runs.size === 0) this.idle(worker);
        if (message.ok) run?.resolve(message.result);
        else run?.reject(errorFrom(message.error));
        return;
      }
      case "httpHead":
        return worker.runs.get(message.run)?.http?.head(message);
      case "httpChunk":
        return worker.runs.get(message.run)?.http?.chunk(message);
      case "bodyFile":
        return this.answer(worker, message.call, message.run, async (_host, run) => {
          if (!run.http?.body) throw new Error("The request has no body");
          return await run.http.body.stage(message.contentType);
        });
      case "bodyPull":
        return this.answer(worker, message.call, message.run, async (_host, run) => {
          const chunk = await run.http?.body?.next();
          if (!chunk) return null;
          // a copy of its own to hand over: a socket's chunk may share its memory with others
          return {
            bytes: chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength),
          };
        });
      case "log": {
        const run = message.run === undefined ? undefined : worker.runs.get(message.run);
        if (run) run.host.log(message.level, message.line);
        else console[message.level]("%s", message.line);
        return;
      }
      case "asyncSyscall":
        return this.answer(worker, message.call, message.run, (host) =>
          host.asyncSyscall(message.op, message.args, worker),
        );
      case "storeBlob":
        return this.answer(worker, message.call, message.run, async (host) =>
          host.storeBlob(
            message.file !== undefined
              ? await openAsBlob(message.file, { type: message.contentType })
              : new Blob([message.bytes!], { type: message.contentType }),
            message.options,
            worker,
          ),
        );
      case "getBlob":
        return this.answer(worker, message.call, message.run, async (host) => {
          const blob = await host.getBlob(message.storageId, worker);
          if (blob === null) return null;
          return { bytes: await blob.arrayBuffer(), contentType: blob.type };
        });
    }
  }

  private answer(
    worker: ActionWorker,
    call: number,
    runId: number,
    handle: (host: ActionHost, run: Run) => Promise<unknown>,
  ) {
    const run = worker.runs.get(runId);
    const answered = run
      ? Promise.resolve().then(() => handle(run.host, run))
      : Promise.reject(new Error("The action has ended"));
    answered.then(
      (value) => {
        const bytes = (value as { bytes?: unknown } | null)?.bytes;
        worker.post(
          { type: "reply", call, ok: true, value },
          bytes instanceof ArrayBuffer ? [bytes] : undefined,
        );
      },
      (error: unknown) => {
        const data = (error as { data?: Value } | null)?.data;
        worker.post({
          type: "reply",
          call,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
          data: data === undefined ? undefined : convexToJson(data),
        });
      },
    );
  }

  /** The top-level action of `worker` ended. */
  private release(worker: ActionWorker) {
    worker.busy = false;
    worker.top = undefined;
    clearTimeout(worker.deadline);
    if (worker.retired && worker.runs.size === 0) return this.end(worker);
    this.pump();
    if (!worker.busy && worker.runs.size === 0) this.idle(worker);
  }

  /** `worker` runs nothing now: it ends if retired, or once idle for IDLE_WORKER_MS. */
  private idle(worker: ActionWorker) {
    if (worker.retired) return this.end(worker);
    clearTimeout(worker.idle);
    worker.idle = setTimeout(() => {
      if (!worker.busy && worker.runs.size === 0 && this.threads > 1) this.end(worker);
    }, IDLE_WORKER_MS);
    worker.idle.unref();
  }

  /**
   * The top-level action of `worker` ran past its time limit: it fails with `error`, with the actions it
   * called, and the worker is stopped.
   */
  private expire(worker: ActionWorker, error: unknown) {
    for (const [id, run] of worker.runs)
      if (!run.http) {
        worker.runs.delete(id);
        run.reject(error);
      }
    worker.busy = false;
    worker.top = undefined;
    clearTimeout(worker.deadline);
    this.stop(worker);
  }

  /**
   * A run on `worker` ran past its limit, and its code may still be running: the worker takes no more
   * work, the HTTP actions it has not begun go to another one, and it is terminated once the runs it
   * holds have ended (each has a limit of its own, or the engine's, which aborts it).
   */
  private stop(worker: ActionWorker) {
    worker.retired = true;
    for (const [id, run] of worker.runs)
      if (run.http && !run.http.started) {
        worker.runs.delete(id);
        this.httpQueue.unshift((next) => run.http!.dispatch(next));
      }
    if (!worker.busy && worker.runs.size === 0) this.end(worker);
    this.pump();
  }

  /** Ends `worker` now: every run on it fails with `error`. */
  private fail(worker: ActionWorker, error: unknown) {
    if (!this.workers.has(worker)) return;
    this.end(worker);
    for (const run of worker.runs.values()) run.reject(error);
    worker.runs.clear();
    this.pump();
  }

  private end(worker: ActionWorker) {
    this.workers.delete(worker);
    clearTimeout(worker.deadline);
    clearTimeout(worker.idle);
    void worker.thread.terminate();
  }
}

/** What a worker's run is loaded with: top-level actions weigh more than any number of HTTP actions. */
const load = (worker: ActionWorker) => (worker.busy ? 1_000_000 : 0) + worker.runs.size;

/** The main thread's Response for an HTTP action's: the same head, its body whole or pulled from `worker`. */
function responseOf(
  head: Extract<ToPool, { type: "httpHead" }>,
  worker: ActionWorker,
  pulls: ((message: Extract<ToPool, { type: "httpChunk" }>) => void)[],
): Response {
  const headers = new Headers();
  for (const [name, value] of head.headers) headers.append(name, value);
  const init = { status: head.status, statusText: head.statusText, headers };
  if (!head.stream)
    return new Response(
      typeof head.whole === "string" || head.whole === null
        ? head.whole
        : new Uint8Array(head.whole),
      init,
    );
  let closed = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        new Promise<void>((resolve) => {
          pulls.push(({ chunk, error }) => {
            resolve();
            if (closed) return;
            closed = error !== undefined || chunk === null;
            if (error !== undefined) controller.error(new Error(error));
            else if (chunk === null) controller.close();
            else controller.enqueue(new Uint8Array(chunk));
          });
          worker.post({ type: "httpPull", run: head.run });
        }),
      cancel: () => {
        closed = true;
        worker.post({ type: "httpCancel", run: head.run });
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}

/** An action's error as the main thread's code reads it (errorMessageOf, convex-test's ConvexError data). */
function errorFrom(thrown: ThrownError): unknown {
  if (thrown.kind === "value") return thrown.text;
  let error: Error;
  if (thrown.data !== undefined) {
    const convexError = new ConvexError<string>(thrown.data);
    convexError.message = thrown.message;
    error = convexError;
  } else {
    error = new Error(thrown.message);
    error.name = thrown.name;
  }
  error.stack = thrown.stack;
  return error;
}
