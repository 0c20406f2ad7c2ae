// `globalThis.Convex`, through which convex/server's code reaches its runtime: in this process it
// answers the syscalls of the query or mutation in the current frame (engine/transaction.ts). Actions
// run in worker threads with a Convex global of their own (engine/action-worker.ts). When a test loads
// convex-test, its hooks wrap this (engine/convex-test-internals.ts installProcessHooks).
import { format } from "node:util";
import { currentFrame } from "./call-context.ts";

interface ConvexRuntime {
  syscall(op: string, json: string): string;
  asyncSyscall(op: string, json: string): Promise<string>;
  jsSyscall(op: string, args: unknown): Promise<unknown>;
}

let installed = false;

/** Installs `globalThis.Convex` and the console's capture of function log lines (once per process). */
export function installConvexGlobal() {
  if (installed) return;
  installed = true;
  const runtime: ConvexRuntime = {
    syscall(op, json) {
      const answer = currentFrame()?.transaction?.syscall(op, json);
      if (answer === undefined) throw new Error(`Unknown operation ${op}`);
      return answer;
    },
    async asyncSyscall(op, json) {
      const answer = currentFrame()?.transaction?.asyncSyscall(op, json);
      if (answer === undefined) throw new Error(`Unknown async operation ${op}`);
      return answer;
    },
    jsSyscall(op) {
      return Promise.reject(new Error(`Unknown operation ${op}`));
    },
  };
  (globalThis as unknown as { Convex: ConvexRuntime }).Convex = runtime;
  captureConsole();
}

/** A function's console lines go to its call's log lines, and print with its path. */
function captureConsole() {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const write = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const call = currentFrame()?.call;
      if (!call) return write(...args);
      const line = `[${level === "log" ? "LOG" : level.toUpperCase()}] ${format(...args)}`;
      call.logLines.push(line);
      write(`[${call.udfPath}] ${line}`);
    };
  }
}
