/**
 * Which URLs a push may be sent to: the browsers' push services only. A subscription's endpoint is
 * whatever its owner sends, so without this check the sender would POST wherever a user points it
 * (cloud metadata, the deployment's own network).
 *
 * - https on the default port, no credentials in the URL;
 * - never an IP literal (push services are names; this refuses every private, loopback, link-local,
 *   unique-local and IPv4-mapped address however it is spelt) nor a local name (`localhost`, `.local`…);
 * - the host on the allow-list: the push services of Chrome/Android (FCM), Firefox, Safari and Edge, or
 *   the deployment's own list in `PUSH_SERVICE_HOSTS` (comma-separated; `*.example.com` means its
 *   subdomains). Convex's runtime cannot resolve names, so where a name points is trusted to its owner.
 *
 * `PUSH_ALLOW_LOOPBACK_HTTP=1` is for tests only: it lets a push service stand-in on
 * `http://127.0.0.1:<port>` take subscriptions, and nothing else.
 */
import { env } from "../_generated/server";

export const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "*.push.services.mozilla.com",
  "*.push.apple.com",
  "*.notify.windows.com",
] as const;

export const MAX_ENDPOINT_LENGTH = 1024;

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/;
const IPV4_LITERAL = /^\d+\.\d+\.\d+\.\d+$/;

function allowedHosts(): string[] {
  const configured = env.PUSH_SERVICE_HOSTS?.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  return configured && configured.length > 0 ? configured : [...PUSH_SERVICE_HOSTS];
}

function hostAllowed(host: string, patterns: string[]): boolean {
  return patterns.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern,
  );
}

/** The test-only push service stand-in: plain http on 127.0.0.1, when the deployment says so. */
function isLoopbackStandIn(url: URL): boolean {
  return (
    env.PUSH_ALLOW_LOOPBACK_HTTP === "1" && url.protocol === "http:" && url.hostname === "127.0.0.1"
  );
}

/** Why a push may not be sent to `endpoint`, or null when it may. */
export function pushEndpointProblem(endpoint: string): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return "too long";
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "not a URL";
  }
  if (url.username !== "" || url.password !== "") return "credentials in the URL";
  if (isLoopbackStandIn(url)) return null;
  if (url.protocol !== "https:") return "not https";
  if (url.port !== "") return "not the default port";
  // the URL parser has already turned 0x7f.1, 2130706433 and the like into dotted IPv4
  const host = url.hostname.toLowerCase();
  if (host.startsWith("[") || IPV4_LITERAL.test(host)) return "an IP address";
  if (!host.includes(".") || host.endsWith(".") || LOCAL_NAMES.test(host)) return "a local name";
  if (!hostAllowed(host, allowedHosts())) return "not a known push service";
  return null;
}
