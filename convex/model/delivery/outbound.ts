/**
 * One outbound HTTP request to a gateway (messages here, wallets in model/wallets/): a deadline, a
 * cap on the answer's bytes, and no private or loopback address (a misconfigured or hostile URL must
 * not reach the deployment's own network). `DELIVERY_ALLOW_LOOPBACK_HTTP=1` lets the local backend
 * send to its outbox stand-in on http://127.0.0.1 (payments pass their own switch). Hostnames are
 * not resolved here (Convex's runtime has no DNS lookup): the gateways' URLs are the operator's
 * configuration, not a client's.
 */
import { env } from "../../_generated/server";

export const OUTBOUND_LIMITS = { timeoutMs: 10_000, responseBytes: 16 * 1024 };

export type OutboundAnswer = { status: number; body: string };

/** IPv4 literals in 0/8, 10/8, 127/8, 169.254/16, 172.16/12, 192.168/16, 100.64/10, and IPv6 literals. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.startsWith("[")) return true;
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255))
    return false;
  const [a, b] = octets as [number, number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/** The URL when a gateway may be sent to, else null; `allowLoopback`: the local stand-ins' switch. */
export function gatewayUrl(
  raw: string,
  allowLoopback = env.DELIVERY_ALLOW_LOOPBACK_HTTP === "1",
): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const loopback = allowLoopback && url.protocol === "http:" && url.hostname === "127.0.0.1";
  if (loopback) return url;
  return url.protocol === "https:" && !isPrivateHost(url.hostname) ? url : null;
}

/** Reads at most `limit` bytes of the answer (the rest is cancelled). */
async function boundedText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - size;
    chunks.push(value.length > room ? value.subarray(0, room) : value);
    size += Math.min(value.length, room);
    if (size >= limit) {
      await reader.cancel();
      break;
    }
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** POSTs to a gateway; null when the URL is refused or the gateway cannot be reached in time. */
export async function post(
  url: URL,
  init: { headers: Record<string, string>; body: string },
): Promise<OutboundAnswer | null> {
  return await request(url, { method: "POST", ...init });
}

/** One request to a gateway; null when it cannot be reached in time. */
export async function request(
  url: URL,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
): Promise<OutboundAnswer | null> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      redirect: "error",
      signal: AbortSignal.timeout(OUTBOUND_LIMITS.timeoutMs),
    });
    return {
      status: response.status,
      body: await boundedText(response, OUTBOUND_LIMITS.responseBytes),
    };
  } catch {
    return null;
  }
}
