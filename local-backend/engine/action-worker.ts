// One worker thread of the action pool (engine/action-pool.ts): it imports the deployment's modules
// and runs actions through convex/server's own entry point (`invokeAction`), as a Convex isolate does.
// What an action asks of the deployment (`ctx.runQuery`, storage, scheduler, identity…) reaches it
// through `globalThis.Convex`: every syscall is a message to the main thread, answered by message.
import { AsyncLocalStorage } from "node:async_hooks";
import { setPriority } from "node:os";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { parentPort, threadId, workerData } from "node:worker_threads";
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

function call(message: SyscallMessage, transfer?: ArrayBuffer[]) {
  const run = currentRun.getStore();
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

port.on("message", (message: FromPool) => {
  switch (message.type) {
    case "run":
      void run(message);
      return;
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
