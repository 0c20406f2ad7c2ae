// One worker thread of the action pool (engine/action-pool.ts): it imports the deployment's modules
// and runs actions through convex/server's own entry point (`invokeAction`), as a Convex isolate does.
// What an action asks of the deployment (`ctx.runQuery`, storage, scheduler, identity…) reaches it
// through `globalThis.Convex`: every syscall is a message to the main thread, answered by message.
// HTTP actions run here the same way, through the router's handler's `invokeHttpAction`.
import { AsyncLocalStorage } from "node:async_hooks";
import { openAsBlob } from "node:fs";
import { setPriority } from "node:os";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { parentPort, threadId, workerData } from "node:worker_threads";
import type { HttpRouter, RoutableMethod } from "convex/server";
import { installLeanResponse, LeanResponse } from "../lean-fetch.ts";
import type { FromPool, ToPool, ThrownError } from "./action-pool.ts";
import { derivePbkdf2OnThisThread } from "./worker-pbkdf2.ts";

const port = parentPort!;

/**
 * Below the main thread (nice +10; on Linux this names the calling thread only): when actions and the
 * main thread want more CPU than there is, queries and mutations get it first.
 */
export const ACTION_NICENESS = 10;
try {
  setPriority(ACTION_NICENESS);
} catch {
  // not permitted here: equal priority
}
derivePbkdf2OnThisThread(
  globalThis.crypto.subtle,
  (workerData as { hashSlots: Int32Array }).hashSlots,
  threadId,
);
/** The run (top-level action or one it called with ctx.runAction) a syscall or console line belongs to. */
const currentRun = new AsyncLocalStorage<number>();
const replies = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
let nextCall = 0;

/** A syscall's message without its call and run numbers (which `call` adds). */
type SyscallMessage = ToPool extends infer M
  ? M extends { call: number }
    ? Omit<M, "call" | "run">
    : never
  : never;

function send(message: ToPool, transfer?: ArrayBuffer[]) {
  port.postMessage(message, transfer);
}

function call(message: SyscallMessage, transfer?: ArrayBuffer[], run = currentRun.getStore()) {
  if (run === undefined)
    return Promise.reject(new Error("Convex functions can only be called while an action runs."));
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    replies.set(id, { resolve, reject });
    send({ ...message, call: id, run } as ToPool, transfer);
  });
}

(globalThis as { Convex?: unknown }).Convex = {
  syscall(op: string) {
    throw new Error(`\`${op}\` is not available in actions.`);
  },
  // performAsyncSyscall (convex/server impl/syscall.js) reads a failure's `message` and `data`.
  asyncSyscall: (op: string, args: string) => call({ type: "asyncSyscall", op, args }),
  async jsSyscall(op: string, args: Record<string, unknown>) {
    if (op === "storage/storeBlob") {
      const blob = args.blob as Blob;
      const file = stagedFiles.get(blob);
      if (file !== undefined)
        return call({
          type: "storeBlob",
          bytes: null,
          file,
          contentType: blob.type,
          options: (args.options ?? {}) as Record<string, unknown>,
        });
      const bytes = await blob.arrayBuffer();
      return call(
        {
          type: "storeBlob",
          bytes,
          contentType: blob.type,
          options: (args.options ?? {}) as Record<string, unknown>,
        },
        [bytes],
      );
    }
    if (op === "storage/getBlob") {
      const file = (await call({ type: "getBlob", storageId: args.storageId as string })) as {
        bytes: ArrayBuffer;
        contentType: string;
      } | null;
      return file === null ? null : new Blob([file.bytes], { type: file.contentType });
    }
    throw new Error(`Unknown JS syscall: ${op}`);
  },
};

for (const level of ["log", "info", "warn", "error", "debug"] as const)
  console[level] = (...args: unknown[]) => {
    send({ type: "log", run: currentRun.getStore(), level, line: format(...args) });
  };

// A promise an action left behind that rejects must not end the worker (and whatever runs on it then).
process.on("unhandledRejection", (reason) =>
  send({
    type: "log",
    run: undefined,
    level: "error",
    line: format("Unhandled rejection:", reason),
  }),
);

const modules = new Map<string, Promise<Record<string, unknown>>>();
const load = (file: string) => {
  let loaded = modules.get(file);
  if (loaded === undefined) {
    loaded = import(pathToFileURL(file).href) as Promise<Record<string, unknown>>;
    modules.set(file, loaded);
  }
  return loaded;
};

function thrown(error: unknown): ThrownError {
  if (!(error instanceof Error)) return { kind: "value", text: String(error) };
  // invokeAction has serialised a ConvexError's data as JSON text already.
  const data = (error as { data?: unknown }).data;
  return {
    kind: "error",
    name: error.name,
    message: error.message,
    stack: error.stack ?? "",
    data: Symbol.for("ConvexError") in error && typeof data === "string" ? data : undefined,
  };
}

async function run(message: Extract<FromPool, { type: "run" }>) {
  try {
    const action = (await load(message.file))[message.name] as
      { invokeAction?: (requestId: string, args: string) => Promise<string> } | undefined;
    if (typeof action?.invokeAction !== "function")
      throw new Error(`${message.name} is not an action of ${message.file}`);
    const invoke = action.invokeAction;
    send({ type: "started", run: message.run });
    const result = await currentRun.run(message.run, () => invoke(message.requestId, message.args));
    send({ type: "done", run: message.run, ok: true, result });
  } catch (error) {
    send({ type: "done", run: message.run, ok: false, error: thrown(error) });
  }
}

installLeanResponse();
/** Response bodies of HTTP actions still being streamed, by run. */
const streaming = new Map<
  number,
  {
    reader: ReadableStreamDefaultReader<Uint8Array>;
    /** Chunks read already, and the read under way when the body went to streaming. */
    ready: Uint8Array[];
    read: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  }
>();

/** A chunk of a response body as bytes (a handler's stream may produce strings). */
const bytesOf = (value: Uint8Array | string) =>
  typeof value === "string" ? Buffer.from(value) : value;

/** What the site port would make of `bytes`: a buffer of their own, to hand over. */
const own = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** Blobs of request bodies the site port staged on disk → their file (ctx.storage.store links it). */
const stagedFiles = new WeakMap<Blob, string>();

/**
 * `request.blob()` of a request with a body: the site port stages the rest of the body on disk and the
 * Blob reads it from there, so a large upload is never held (as undici's would be, whole).
 */
function blobFromDisk(request: Request, run: number) {
  Object.defineProperty(request, "blob", {
    async value() {
      if (request.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
      // the Blob's type as undici makes it from the Content-Type
      const type = (await new Response("", { headers: request.headers }).blob()).type;
      const file = (await call({ type: "bodyFile", contentType: type }, undefined, run)) as string;
      const blob = await openAsBlob(file, { type });
      stagedFiles.set(blob, file);
      return blob;
    },
  });
}

/** The request's body: each chunk pulled from the main thread (which reads the socket) when asked for. */
function requestBody(run: number): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = (await call({ type: "bodyPull" }, undefined, run)) as {
          bytes: ArrayBuffer;
        } | null;
        if (chunk === null) controller.close();
        else controller.enqueue(new Uint8Array(chunk.bytes));
      },
    },
    { highWaterMark: 0 },
  );
}

async function runHttp(message: Extract<FromPool, { type: "http" }>) {
  const id = message.run;
  send({ type: "started", run: id });
  try {
    const router = (await load(message.file)).default as HttpRouter | undefined;
    const found = router?.lookup(message.pathname, message.method as RoutableMethod);
    const handler = found?.[0] as
      { invokeHttpAction?: (request: Request) => Promise<Response> } | undefined;
    if (typeof handler?.invokeHttpAction !== "function")
      throw new Error(`No HTTP action for ${message.method} ${message.pathname}`);
    const invoke = handler.invokeHttpAction;
    const headers = new Headers();
    for (let i = 0; i < message.headers.length; i += 2)
      headers.append(message.headers[i], message.headers[i + 1]);
    const request = new Request(message.url, {
      method: message.method,
      headers,
      body: message.hasBody ? requestBody(id) : undefined,
      duplex: "half",
    } as RequestInit);
    if (message.hasBody) blobFromDisk(request, id);
    const response = await currentRun.run(id, () => invoke(request));
    if (!(response instanceof Response))
      throw new Error("The HTTP action's handler did not return a Response.");
    const pairs: [string, string][] = [];
    response.headers.forEach((value, name) => pairs.push([name, value]));
    const head = {
      type: "httpHead",
      run: id,
      status: response.status,
      statusText: response.statusText,
      headers: pairs,
    } as const;
    const held = LeanResponse.take(response);
    let whole: string | ArrayBuffer | null = null;
    if (held !== null)
      whole =
        typeof held === "string"
          ? held
          : held instanceof Blob
            ? await held.arrayBuffer()
            : own(held);
    else if (response.body !== null) {
      // What the body produces within this turn goes whole (with its Content-Length), as site.ts does.
      const reader = response.body.getReader();
      const ready: Uint8Array[] = [];
      const turn = new Promise<null>((resolve) => setImmediate(resolve, null));
      let read = currentRun.run(id, () => reader.read());
      for (;;) {
        const next = await Promise.race([read, turn]);
        if (next === null) {
          streaming.set(id, { reader, ready, read });
          return send({ ...head, whole: null, stream: true });
        }
        if (next.done) break;
        ready.push(bytesOf(next.value));
        read = currentRun.run(id, () => reader.read());
      }
      whole = own(Buffer.concat(ready));
    }
    send({ ...head, whole, stream: false }, whole instanceof ArrayBuffer ? [whole] : undefined);
    send({ type: "done", run: id, ok: true, result: "" });
  } catch (error) {
    send({ type: "done", run: id, ok: false, error: thrown(error) });
  }
}

/** The next chunk of a streamed response body, read in its run's context (the body may call functions). */
function pullResponse(id: number) {
  const body = streaming.get(id);
  if (body === undefined) return send({ type: "httpChunk", run: id, chunk: null });
  const first = body.ready.shift();
  if (first !== undefined) {
    const chunk = own(first);
    return send({ type: "httpChunk", run: id, chunk }, [chunk]);
  }
  const reader = body.reader;
  const read = body.read ?? currentRun.run(id, () => reader.read());
  body.read = undefined;
  const end = (error?: string) => {
    streaming.delete(id);
    send({ type: "httpChunk", run: id, chunk: null, error });
    send({ type: "done", run: id, ok: true, result: "" });
  };
  read.then(
    (next) => {
      if (next.done) return end();
      const chunk = own(bytesOf(next.value));
      send({ type: "httpChunk", run: id, chunk }, [chunk]);
    },
    (error: unknown) => end(error instanceof Error ? error.message : String(error)),
  );
}

port.on("message", (message: FromPool) => {
  switch (message.type) {
    case "run":
      void run(message);
      return;
    case "http":
      void runHttp(message);
      return;
    case "httpPull":
      pullResponse(message.run);
      return;
    case "httpCancel": {
      const body = streaming.get(message.run);
      streaming.delete(message.run);
      void body?.reader.cancel().catch(() => {});
      send({ type: "done", run: message.run, ok: true, result: "" });
      return;
    }
    case "reply": {
      const waiting = replies.get(message.call);
      replies.delete(message.call);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject({ message: message.message, data: message.data });
      return;
    }
  }
});

send({ type: "ready" });
