import type { HttpRouter } from "convex/server";

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function addAccountRoutes(http: HttpRouter) {}
