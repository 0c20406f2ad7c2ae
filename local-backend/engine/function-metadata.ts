// `ctx.meta`'s function, request and deployment metadata as Convex answers them (`1.0/getFunctionMetadata`,
// `1.0/getRequestMetadata`, `1.0/getDeploymentMetadata`), for a query or mutation the engine invokes (engine/transaction.ts) and for
// a pooled or HTTP action (Engine.actionHost).
import { newRequestId } from "../http-util.ts";

/** What `ctx.meta.getRequestMetadata()` answers inside a function. */
export interface RequestMetadata {
  ip: string | null;
  userAgent: string | null;
  requestId: string;
  scheduledFunctionId: string | null;
  authToken: string | null;
}

/** A function's request metadata; a scheduled job's names the job. */
export function requestMetadata(scheduledFunctionId: string | null): RequestMetadata {
  return {
    ip: null,
    userAgent: null,
    requestId: newRequestId(),
    scheduledFunctionId,
    authToken: null,
  };
}

/** One run of a function, as its metadata syscalls describe it. */
export interface FunctionRun {
  /** The function's path (`module:name`); `http` for an HTTP action. */
  udfPath: string;
  udfType: "query" | "mutation" | "action" | "http";
  /** A nested call's is its caller's. */
  request: RequestMetadata;
}

/**
 * `ctx.meta.getDeploymentMetadata()`: the deployment's name as `/instance_name` gives it, and Convex's
 * default class; a local deployment has no region.
 */
const DEPLOYMENT_METADATA = JSON.stringify({ name: "local", region: null, class: "s16" });

/** The JSON answer to a metadata syscall of `run`; undefined for any other operation. */
export function metadataSyscall(op: string, run: FunctionRun): string | undefined {
  switch (op) {
    case "1.0/getFunctionMetadata":
      return JSON.stringify({ name: run.udfPath, componentPath: "" });
    case "1.0/getRequestMetadata":
      if (run.udfType === "query")
        throw new Error(
          "getRequestMetadata() can only be called from a mutation, action or HTTP action. " +
            "It is not available in queries.",
        );
      return JSON.stringify(run.request);
    case "1.0/getDeploymentMetadata":
      return DEPLOYMENT_METADATA;
  }
  return undefined;
}
