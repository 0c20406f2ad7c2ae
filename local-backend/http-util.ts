// Small helpers shared by the HTTP handlers.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Convex-Client, Authorization",
  "Access-Control-Max-Age": "86400",
};

export class BodyTooLarge extends Error {}

export async function readBody(
  req: IncomingMessage,
  limit = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A JSON answer whose text is written already. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": "application/json", ...CORS_HEADERS, ...headers });
  res.end(text);
}

/** A request id as Convex makes one: 8 random bytes in hex. */
export const newRequestId = () => randomBytes(8).toString("hex");

/**
 * What a client is told about an internal error (a bug or failure of this server, not an error thrown by
 * a Convex function): Convex's "[Request ID: …] Server Error". The details go to the server log under
 * the same request id.
 */
export function serverError(error: unknown, context: string): string {
  const requestId = newRequestId();
  console.error(`local-backend: [Request ID: ${requestId}] ${context} failed:`, error);
  return `[Request ID: ${requestId}] Server Error`;
}

/** The request's target as a URL against `base`, or null for one no URL parser accepts (`http://[`). */
export function requestUrl(req: { url?: string }, base: string): URL | null {
  try {
    return new URL(req.url ?? "/", base);
  } catch {
    return null;
  }
}

/** A logged 500 for what a handler threw (its request id in the answer); a started answer is ended. */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown) {
  const message = serverError(error, `${req.method} ${req.url}`);
  if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain", ...CORS_HEADERS });
  res.end(message);
}
