// The outbox: a stand-in for the app's two message gateways, so that codes sent offline land on a
// page a person (or a browser test) can read, like Mailpit. It speaks the gateways' documented HTTP
// APIs, so convex/model/delivery/ sends to it exactly as it sends in production:
//   POST /outbox/resend/emails   Resend's "send email" (Bearer key; JSON {from, to, subject, text|html})
//   POST /outbox/sparrow/v2/sms/ Sparrow SMS's "send SMS" (token, from, to, text; form or query)
// and shows what arrived: GET /outbox (the page), /outbox/events (Server-Sent Events: every message
// at connect, then each new one), /outbox/messages (JSON, newest first).
// Served on the local backend's site port only; a deployment has no such route.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLarge, readBody } from "../http-util.ts";

export type OutboxMessage = {
  id: string;
  channel: "email" | "sms";
  from: string;
  to: string[];
  subject: string;
  text: string;
  at: number;
};

/** Messages kept (the oldest go first); a gateway request body's cap. */
export const OUTBOX_LIMITS = { messages: 1000, bodyBytes: 64 * 1024, recipients: 50 };

export const OUTBOX_PREFIX = "/outbox";

export const isOutboxPath = (pathname: string) =>
  pathname === OUTBOX_PREFIX || pathname.startsWith(`${OUTBOX_PREFIX}/`);

/** The keys the stand-in accepts, and which the local backend hands its functions. */
export type OutboxKeys = { resendApiKey: string; sparrowToken: string };

/** Nepali mobile numbers as Sparrow takes them: 10 digits starting 97 or 98. */
const SPARROW_RECEIVER = /^9[78]\d{8}$/;

export class Outbox {
  private readonly messages: OutboxMessage[] = [];
  private readonly watchers = new Set<ServerResponse>();

  constructor(private readonly keys: OutboxKeys) {}

  /** Newest first. */
  list(): OutboxMessage[] {
    return [...this.messages].reverse();
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | undefined {
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case "GET /outbox":
      case "GET /outbox/":
        return void page(res);
      case "GET /outbox/messages":
        return void json(res, 200, this.list());
      case "GET /outbox/events":
        return void this.watch(req, res);
      case "POST /outbox/resend/emails":
        return this.resendEmail(req, res);
      case "GET /outbox/sparrow/v2/sms/":
      case "POST /outbox/sparrow/v2/sms/":
        return this.sparrowSms(req, res, url);
      default:
        json(res, 404, { error: "Not found" });
    }
  }

  close(): void {
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  private add(message: Omit<OutboxMessage, "id" | "at">): OutboxMessage {
    const stored = { ...message, id: randomUUID(), at: Date.now() };
    this.messages.push(stored);
    if (this.messages.length > OUTBOX_LIMITS.messages) this.messages.shift();
    const event = `event: message\ndata: ${JSON.stringify(stored)}\n\n`;
    for (const watcher of this.watchers) watcher.write(event);
    return stored;
  }

  private watch(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    res.write(`event: all\ndata: ${JSON.stringify(this.list())}\n\n`);
    this.watchers.add(res);
    req.on("close", () => this.watchers.delete(res));
  }

  /** Resend: https://resend.com/docs/api-reference/emails/send-email (errors {statusCode, name, message}). */
  private async resendEmail(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const resendError = (statusCode: number, name: string, message: string) =>
      json(res, statusCode, { statusCode, name, message });
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer "))
      return resendError(401, "missing_api_key", "Missing API key in the authorization header.");
    if (auth.slice("Bearer ".length) !== this.keys.resendApiKey)
      return resendError(403, "invalid_api_key", "API key is invalid.");
    const body = await bodyOf(req);
    if (body === null) return resendError(422, "validation_error", "Request body is too large.");
    let email: Record<string, unknown>;
    try {
      email = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } catch {
      return resendError(400, "invalid_request", "The body is not JSON.");
    }
    const to = typeof email.to === "string" ? [email.to] : email.to;
    const content = typeof email.text === "string" ? email.text : email.html;
    if (typeof email.from !== "string" || email.from === "")
      return resendError(422, "missing_required_field", "The `from` field is missing.");
    if (
      !Array.isArray(to) ||
      to.length === 0 ||
      to.length > OUTBOX_LIMITS.recipients ||
      !to.every((a) => typeof a === "string" && /^[^@\s]+@[^@\s]+$/.test(a))
    )
      return resendError(422, "validation_error", "Invalid `to` field.");
    if (typeof email.subject !== "string" || email.subject === "")
      return resendError(422, "missing_required_field", "The `subject` field is missing.");
    if (typeof content !== "string")
      return resendError(422, "validation_error", "Either `text` or `html` must be given.");
    const stored = this.add({
      channel: "email",
      from: email.from,
      to: to as string[],
      subject: email.subject,
      text: content,
    });
    json(res, 200, { id: stored.id });
  }

  /** Sparrow SMS v2: https://docs.sparrowsms.com (every refusal a 403 with a response_code). */
  private async sparrowSms(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const refuse = (response_code: number, response: string) =>
      json(res, 403, { response_code, response });
    const params = new URLSearchParams(url.search);
    if (req.method === "POST") {
      const body = await bodyOf(req);
      if (body === null) return refuse(1000, "A required field is missing");
      const type = req.headers["content-type"] ?? "";
      try {
        const fields = type.includes("application/json")
          ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>)
          : Object.fromEntries(new URLSearchParams(body.toString("utf8")));
        for (const [k, v] of Object.entries(fields)) if (typeof v === "string") params.set(k, v);
      } catch {
        return refuse(1000, "A required field is missing");
      }
    }
    const [token, from, to, text] = ["token", "from", "to", "text"].map((k) => params.get(k));
    if (token === null || from === null || to === null || text === null)
      return refuse(1000, "A required field is missing");
    if (token !== this.keys.sparrowToken) return refuse(1002, "Invalid Token");
    if (from.trim() === "") return refuse(1008, "Invalid Sender");
    if (text === "") return refuse(1010, "Text cannot be empty");
    const receivers = to.split(",").map((n) => n.trim());
    if (receivers.length > OUTBOX_LIMITS.recipients) return refuse(1007, "Invalid Receiver");
    const valid = receivers.filter((n) => SPARROW_RECEIVER.test(n));
    if (valid.length === 0) return refuse(1011, "No valid receiver");
    this.add({ channel: "sms", from, to: valid, subject: "", text });
    json(res, 200, {
      count: valid.length,
      response_code: 200,
      response: `${valid.length} mesages has been queued for delivery`,
    });
  }
}

async function bodyOf(req: IncomingMessage): Promise<Buffer | null> {
  try {
    return await readBody(req, OUTBOX_LIMITS.bodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) return null;
    throw error;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  // the page's one inline script and style; messages are inserted as text, never as HTML
  "Content-Security-Policy":
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
};

function page(res: ServerResponse): void {
  res.writeHead(200, PAGE_HEADERS);
  res.end(OUTBOX_PAGE);
}

const OUTBOX_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox — GharSewa local backend</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
  header { padding: 12px 16px; background: #0f766e; color: #fff; }
  header h1 { margin: 0; font-size: 18px; }
  header p { margin: 2px 0 0; font-size: 13px; opacity: .85; }
  main { max-width: 760px; margin: 0 auto; padding: 12px; }
  article { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 10px 12px; margin: 0 0 10px; }
  .meta { font-size: 13px; color: #475569; display: flex; flex-wrap: wrap; gap: 4px 12px; }
  .kind { font-weight: 600; text-transform: uppercase; color: #0f766e; }
  h2 { font-size: 16px; margin: 4px 0; }
  pre { white-space: pre-wrap; word-break: break-word; margin: 6px 0 0; font: inherit; }
  #status { font-size: 13px; }
</style>
</head>
<body>
<header><h1>Outbox</h1><p>Every email and SMS this local backend sent, newest first. <span id="status" role="status">Connecting…</span></p></header>
<main><p id="empty">Nothing sent yet.</p><section id="messages" aria-label="Messages"></section></main>
<script>
const list = document.getElementById("messages");
const empty = document.getElementById("empty");
const status = document.getElementById("status");
function render(m) {
  const article = document.createElement("article");
  article.setAttribute("aria-label", (m.channel === "email" ? "Email to " : "SMS to ") + m.to.join(", "));
  const meta = document.createElement("div");
  meta.className = "meta";
  const kind = document.createElement("span");
  kind.className = "kind";
  kind.textContent = m.channel === "email" ? "Email" : "SMS";
  const to = document.createElement("span");
  to.textContent = "To: " + m.to.join(", ");
  const from = document.createElement("span");
  from.textContent = "From: " + m.from;
  const time = document.createElement("time");
  time.dateTime = new Date(m.at).toISOString();
  time.textContent = new Date(m.at).toLocaleString();
  meta.append(kind, to, from, time);
  article.append(meta);
  if (m.subject) {
    const subject = document.createElement("h2");
    subject.textContent = m.subject;
    article.append(subject);
  }
  const text = document.createElement("pre");
  text.textContent = m.text;
  article.append(text);
  return article;
}
const events = new EventSource("/outbox/events");
events.addEventListener("all", (e) => {
  const all = JSON.parse(e.data);
  list.replaceChildren(...all.map(render));
  empty.hidden = all.length > 0;
  status.textContent = "Live.";
});
events.addEventListener("message", (e) => {
  list.prepend(render(JSON.parse(e.data)));
  empty.hidden = true;
});
events.onerror = () => { status.textContent = "Reconnecting…"; };
</script>
</body>
</html>
`;
