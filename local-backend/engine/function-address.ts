// A function's address as convex/server sends it (components/paths.js getFunctionAddress: a name, a
// component's reference or a function handle) and `createFunctionHandle`'s answer. The engine serves
// the root component only: its handles are `function://;<path>`, as Convex writes a root function's.

/** What `1.0/runUdf`, `1.0/schedule`, `1.0/actions/*` and `1.0/createFunctionHandle` name a function by. */
export interface FunctionAddress {
  name?: unknown;
  reference?: unknown;
  functionHandle?: unknown;
}

const ROOT_HANDLE = "function://;";

/** The function's path (`module:name`, as given); throws for a component's function. */
export function addressedPath(address: FunctionAddress): string {
  if (typeof address.functionHandle === "string") {
    if (!address.functionHandle.startsWith(ROOT_HANDLE))
      throw new Error(`Invalid function handle: ${address.functionHandle}`);
    return address.functionHandle.slice(ROOT_HANDLE.length);
  }
  if (typeof address.name === "string") return address.name;
  if (typeof address.reference === "string")
    throw new Error(`Components are not served here: ${address.reference}`);
  throw new Error("Function address not supported");
}

/** `1.0/createFunctionHandle`'s JSON answer: the handle of the addressed root function. */
export function functionHandleJson(json: string): string {
  return JSON.stringify(ROOT_HANDLE + addressedPath(JSON.parse(json) as FunctionAddress));
}
