/**
 * Reading the outbox stand-in (outbox.ts) from a script or test, as a person reads their phone.
 *
 * The text of the first SMS the outbox holds or receives for `phone` (a number nothing else was
 * sent to), read from its live event stream: the first event lists every message so far, each later
 * one a new message.
 */
export async function smsTo(siteUrl: string, phone: string): Promise<string> {
  type Sent = { channel: string; to: string[]; text: string };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 30_000);
  try {
    const res = await fetch(`${siteUrl}/outbox/events`, { signal: abort.signal });
    if (!res.ok || res.body === null) throw new Error(`outbox events: ${res.status}`);
    const decoder = new TextDecoder();
    let buffered = "";
    const reader = res.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n\n")) !== -1) {
        const data = /^data: (.*)$/m.exec(buffered.slice(0, end))?.[1];
        buffered = buffered.slice(end + 2);
        if (data === undefined) continue;
        const parsed = JSON.parse(data) as Sent | Sent[];
        const sms = (Array.isArray(parsed) ? parsed : [parsed]).find(
          (m) => m.channel === "sms" && m.to.includes(phone),
        );
        if (sms !== undefined) return sms.text;
      }
    }
    throw new Error(`the outbox closed before an SMS to ${phone} arrived`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
