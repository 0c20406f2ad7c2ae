// Convex's runtime offers no fetch and no timers to queries and mutations: calling one throws (the
// texts are convex-test's, which callers and the conformance tests read). Each of those globals
// becomes an accessor that answers from the current frame's `globals` (engine/call-context.ts) when
// there is one, so a handler's own assignment to it stays its own too; elsewhere it is the process's.
// An accessor installed before (convex-test's, in tests) stays underneath as the process's value.
import { currentFrame } from "./call-context.ts";

const REFUSED = ["fetch", "setTimeout", "clearTimeout", "setInterval", "clearInterval"] as const;

function refused(name: string) {
  return () => {
    throw new Error(
      `\`${name}\` is not supported in Convex queries or mutations. ` +
        "Move this code to an action; a mutation can start one with " +
        "`ctx.scheduler.runAfter(0, ...)`.",
    );
  };
}

/** The globals a query's or mutation's handler sees replaced: a fresh set per handler. */
export function transactionGlobals(): Record<string, unknown> {
  const globals: Record<string, unknown> = {};
  for (const name of REFUSED) globals[name] = refused(name);
  return globals;
}

let installed = false;

/** Makes the refused globals answer from the current frame (once per process). */
export function installTransactionGlobals() {
  if (installed) return;
  installed = true;
  const g = globalThis as unknown as Record<string, unknown>;
  for (const name of REFUSED) {
    const own = Object.getOwnPropertyDescriptor(g, name);
    if (own === undefined || own.configurable === false) continue;
    const outside = { ...own };
    Object.defineProperty(g, name, {
      configurable: true,
      enumerable: own.enumerable,
      get() {
        const globals = currentFrame()?.globals;
        if (globals !== undefined && name in globals) return globals[name];
        return "value" in outside ? outside.value : outside.get?.call(g);
      },
      set(value: unknown) {
        const globals = currentFrame()?.globals;
        if (globals !== undefined) globals[name] = value;
        else if ("value" in outside) outside.value = value;
        else outside.set?.call(g, value);
      },
    });
  }
}
