// What the two wallet stand-ins (esewa.ts, khalti.ts) share: bounded bodies, JSON and HTML answers,
// and the hosted page where a tester signs in with a test wallet and pays, cancels or lets it expire.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLarge, readBody } from "../http-util.ts";

/** Payments kept per stand-in (the oldest go first); a request body's cap; how long a payment may wait. */
export const WALLET_LIMITS = { payments: 5000, bodyBytes: 16 * 1024, expiryMs: 30 * 60_000 };

/** The body as text, or null when it passes the cap. */
export async function bodyText(req: IncomingMessage): Promise<string | null> {
  try {
    return (await readBody(req, WALLET_LIMITS.bodyBytes)).toString("utf8");
  } catch (error) {
    if (error instanceof BodyTooLarge) return null;
    throw error;
  }
}

/** Form or JSON fields of a POST body, strings only; null for a body that is neither or too large. */
export async function bodyFields(req: IncomingMessage): Promise<Record<string, string> | null> {
  const text = await bodyText(req);
  if (text === null) return null;
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
      return Object.fromEntries(
        Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
      );
    } catch {
      return null;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, to: URL): void {
  res.writeHead(303, { Location: to.toString(), "Cache-Control": "no-store" });
  res.end();
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export type Brand = { name: string; color: string };

const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *",
};

/** A whole page; `body` is HTML the caller built with escapeHtml. */
export function page(res: ServerResponse, status: number, brand: Brand, body: string): void {
  res.writeHead(status, PAGE_HEADERS);
  res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(brand.name)} (stand-in)</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
  header { padding: 12px 16px; background: ${brand.color}; color: #fff; }
  header h1 { margin: 0; font-size: 20px; }
  header p { margin: 2px 0 0; font-size: 13px; opacity: .9; }
  main { max-width: 420px; margin: 0 auto; padding: 16px; }
  .card { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 14px; margin: 0 0 12px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0; }
  dt { color: #475569; } dd { margin: 0; font-weight: 600; word-break: break-all; }
  label { display: block; margin: 10px 0 4px; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 10px; font: inherit; border: 1px solid #94a3b8; border-radius: 6px; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 14px; }
  button { font: inherit; padding: 10px 16px; border-radius: 6px; border: 1px solid #94a3b8; background: #fff; cursor: pointer; }
  button.pay { background: ${brand.color}; border-color: ${brand.color}; color: #fff; font-weight: 600; }
  .hint { font-size: 13px; color: #475569; }
  .error { color: #b91c1c; font-weight: 600; }
</style>
</head>
<body>
<header><h1>${escapeHtml(brand.name)}</h1><p>Local stand-in of the payment gateway: no real money moves.</p></header>
<main>${body}</main>
</body>
</html>
`);
}

export type Checkout = {
  merchant: string;
  amountText: string;
  reference: string;
  expiresAt: number;
  /** The credentials' labels and the test wallets' hint. */
  fields: { name: string; label: string; type: "text" | "password"; autocomplete: string }[];
  hint: string;
  error?: string;
};

/** The hosted checkout: wallet credentials, then pay, cancel, or let it expire now (for testers). */
export function checkoutPage(res: ServerResponse, brand: Brand, checkout: Checkout): void {
  const inputs = checkout.fields
    .map(
      (f) =>
        `<label for="${f.name}">${escapeHtml(f.label)}</label><input id="${f.name}" name="${f.name}" type="${f.type}" autocomplete="${f.autocomplete}" required>`,
    )
    .join("\n");
  page(
    res,
    checkout.error === undefined ? 200 : 401,
    brand,
    `<section class="card" aria-label="Payment">
<dl>
<dt>Merchant</dt><dd>${escapeHtml(checkout.merchant)}</dd>
<dt>Amount</dt><dd>${escapeHtml(checkout.amountText)}</dd>
<dt>Reference</dt><dd>${escapeHtml(checkout.reference)}</dd>
<dt>Expires</dt><dd>${escapeHtml(new Date(checkout.expiresAt).toISOString())}</dd>
</dl>
</section>
<form class="card" method="post">
${checkout.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(checkout.error)}</p>`}
${inputs}
<p class="hint">${escapeHtml(checkout.hint)}</p>
<div class="actions">
<button class="pay" name="action" value="pay">Pay ${escapeHtml(checkout.amountText)}</button>
<button name="action" value="cancel" formnovalidate>Cancel payment</button>
<button name="action" value="expire" formnovalidate>Let it expire now</button>
</div>
</form>`,
  );
}

/** A page telling the tester why nothing happened (a refused form, an unknown or closed payment). */
export function problemPage(res: ServerResponse, brand: Brand, status: number, message: string) {
  page(
    res,
    status,
    brand,
    `<section class="card"><p class="error" role="alert">${escapeHtml(message)}</p></section>`,
  );
}

/** A Map that forgets its oldest entries past `WALLET_LIMITS.payments`. */
export class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    super.set(key, value);
    if (this.size > WALLET_LIMITS.payments) this.delete(this.keys().next().value!);
    return this;
  }
}

export const isHttpUrl = (raw: unknown): raw is string => {
  if (typeof raw !== "string" || raw.length > 2048) return false;
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};
