import { ConvexError } from "convex/values";

/** The readable message of a server refusal (ConvexError {message}) or an Error, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ConvexError) {
    const data: unknown = error.data;
    if (typeof data === "string" && data) return data;
    if (data && typeof data === "object" && "message" in data && typeof data.message === "string")
      return data.message;
    return fallback;
  }
  // Plain server errors arrive as "[Request ID: …] Server Error …": not for users.
  if (error instanceof Error && error.message && !/Server Error|Request ID/.test(error.message))
    return error.message;
  return fallback;
}

/** The data object of a server refusal (ConvexError {code, message, ...}), or null. */
export function errorData(error: unknown): Record<string, unknown> | null {
  if (!(error instanceof ConvexError)) return null;
  const data: unknown = error.data;
  return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : null;
}
