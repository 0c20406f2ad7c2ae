// The backend's own outbound requests (an auth provider's discovery document and key set): each one has a
// time limit and a byte limit, so a slow or endless answer costs a bounded wait and bounded memory.
export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_BYTES = 1024 * 1024;

/** Why an outbound request gave no usable answer; `message` reads after "Could not fetch …: ". */
export class OutboundFetchError extends Error {}

export interface BoundedAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  /** The body as UTF-8 text, at most `maxBytes` bytes (after any Content-Encoding was undone). */
  text: string;
}

/**
 * GET `url`; the whole exchange (connect, headers, body) must end within `timeoutMs` and the body must
 * not pass `maxBytes`, else OutboundFetchError. The body is read in chunks and dropped at the limit.
 */
export async function fetchBounded(
  url: string,
  {
    accept = "application/json",
    timeoutMs = OUTBOUND_TIMEOUT_MS,
    maxBytes = OUTBOUND_MAX_BYTES,
  }: { accept?: string; timeoutMs?: number; maxBytes?: number } = {},
): Promise<BoundedAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const tooSlow = () => new OutboundFetchError(`no answer within ${timeoutMs / 1000} s`);
  const tooLarge = () => new OutboundFetchError(`the answer is larger than ${maxBytes} bytes`);
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: accept }, signal });
  } catch (error) {
    throw signal.aborted ? tooSlow() : new OutboundFetchError((error as Error).message);
  }
  if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > maxBytes) {
          await reader.cancel().catch(() => {});
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof OutboundFetchError) throw error;
      throw signal.aborted ? tooSlow() : new OutboundFetchError((error as Error).message);
    }
  }
  return {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    text: Buffer.concat(chunks).toString("utf8"),
  };
}
