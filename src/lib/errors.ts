import { ConvexError } from "convex/values";
import { getLocale } from "@/i18n/paraglide/runtime";
import { serverErrorText } from "@/i18n/server-errors";

/**
 * What to tell the user about a failed call. A server refusal (ConvexError {code, message}) is worded
 * by its code from the one catalogue (src/i18n/server-errors.ts) in the chosen language; in English the
 * server's own message, which may carry details, is shown as it is. Anything else: the fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ConvexError) {
    const data: unknown = error.data;
    if (typeof data === "string" && data) return getLocale() === "en" ? data : fallback;
    if (data && typeof data === "object") {
      const message = "message" in data && typeof data.message === "string" ? data.message : null;
      if (getLocale() === "en" && message) return message;
      return ("code" in data ? serverErrorText(data.code) : null) ?? fallback;
    }
    return fallback;
  }
  // Plain server errors arrive as "[Request ID: …] Server Error …", and the browser's DOMExceptions
  // speak to developers: neither is for users.
  if (
    getLocale() === "en" &&
    error instanceof Error &&
    !(error instanceof DOMException) &&
    error.message &&
    !/Server Error|Request ID/.test(error.message)
  )
    return error.message;
  return fallback;
}

/** The data object of a server refusal (ConvexError {code, message, ...}), or null. */
export function errorData(error: unknown): Record<string, unknown> | null {
  if (!(error instanceof ConvexError)) return null;
  const data: unknown = error.data;
  return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : null;
}
