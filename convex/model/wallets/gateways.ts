/**
 * The two wallets' protocols, configured by the deployment's environment (README "Payments"):
 *
 * - eSewa ePay v2: `ESEWA_BASE_URL` (the form host: https://rc-epay.esewa.com.np for UAT,
 *   https://epay.esewa.com.np in production), `ESEWA_STATUS_URL` (the status check's host when it
 *   differs: https://rc.esewa.com.np for UAT), `ESEWA_PRODUCT_CODE`, `ESEWA_SECRET_KEY`;
 * - Khalti KPG-2: `KHALTI_BASE_URL` (https://dev.khalti.com sandbox, https://khalti.com production),
 *   `KHALTI_SECRET_KEY`;
 * - `SITE_URL`: the web app, where the gateways send the customer back.
 *
 * Every request goes through delivery/outbound.ts (deadline, byte cap, no private address);
 * `PAYMENTS_ALLOW_LOOPBACK_HTTP=1` lets the local backend's stand-ins on http://127.0.0.1 in.
 * Nothing a gateway or a return says is trusted beyond what it is checked against: what this
 * deployment sent (reference, amount, product code) and, for eSewa's return, the HMAC signature.
 */
import { env } from "../../_generated/server";
import { paisaOf, rupeesText, MAX_ESEWA_DATA_LENGTH } from "../../rules/wallets";
import { gatewayUrl, request, type OutboundAnswer } from "../delivery/outbound";

/** What the gateway says about one payment, as far as this deployment is concerned. */
export type CheckOutcome =
  | { kind: "paid"; gatewayId: string }
  | { kind: "pending" | "open" | "canceled" | "expired" | "refunded" | "amount_mismatch" }
  | { kind: "unreachable" };

const allowLoopback = () => env.PAYMENTS_ALLOW_LOOPBACK_HTTP === "1";
const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Where the customer comes back to (the web app's return pages). */
export function siteUrl(): string {
  return trimSlash(env.SITE_URL || "http://127.0.0.1:5173");
}

function parseJson(answer: OutboundAnswer | null): Record<string, unknown> | null {
  if (answer === null) return null;
  try {
    const value: unknown = JSON.parse(answer.body);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- eSewa

export type EsewaConfig = {
  formUrl: URL;
  statusUrl: URL;
  productCode: string;
  secretKey: string;
};

/** eSewa as configured, or null when a key is missing or a host is refused. */
export function esewaConfig(): EsewaConfig | null {
  const base = trimSlash(env.ESEWA_BASE_URL || "https://epay.esewa.com.np");
  const statusBase = trimSlash(env.ESEWA_STATUS_URL || base);
  const formUrl = gatewayUrl(`${base}/api/epay/main/v2/form`, allowLoopback());
  const statusUrl = gatewayUrl(`${statusBase}/api/epay/transaction/status/`, allowLoopback());
  const productCode = env.ESEWA_PRODUCT_CODE;
  const secretKey = env.ESEWA_SECRET_KEY;
  if (!formUrl || !statusUrl || !productCode || !secretKey) return null;
  return { formUrl, statusUrl, productCode, secretKey };
}

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** HMAC-SHA256 in base64 over `name=value,…` of `signedFieldNames`, in their order (Web Crypto). */
export async function esewaSignature(
  fields: Record<string, string>,
  signedFieldNames: string,
  secretKey: string,
): Promise<string> {
  const message = signedFieldNames
    .split(",")
    .map((name) => `${name}=${fields[name] ?? ""}`)
    .join(",");
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secretKey),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message))));
}

/** Compares in time independent of where two strings first differ. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

export const ESEWA_SIGNED_FIELDS = "total_amount,transaction_uuid,product_code";

/** The form the customer's browser POSTs to eSewa: every field, signed. */
export async function esewaForm(
  config: EsewaConfig,
  transactionUuid: string,
  amountPaisa: number,
): Promise<{ url: string; fields: Record<string, string> }> {
  const total = rupeesText(amountPaisa);
  const back = `${siteUrl()}/pay/esewa/${transactionUuid}`;
  const fields: Record<string, string> = {
    amount: total,
    tax_amount: "0",
    total_amount: total,
    transaction_uuid: transactionUuid,
    product_code: config.productCode,
    product_service_charge: "0",
    product_delivery_charge: "0",
    success_url: back,
    failure_url: `${back}/failed`,
    signed_field_names: ESEWA_SIGNED_FIELDS,
  };
  fields.signature = await esewaSignature(fields, ESEWA_SIGNED_FIELDS, config.secretKey);
  return { url: config.formUrl.toString(), fields };
}

/** The fields a signed return must cover for this deployment to rely on it. */
const RETURN_FIELDS = [
  "transaction_code",
  "status",
  "total_amount",
  "transaction_uuid",
  "product_code",
];

/**
 * eSewa's `data` on return to success_url (base64 JSON): whether it is signed with this deployment's
 * key AND says COMPLETE for exactly this transaction, product and amount. Only then is the status
 * check worth asking; a payment is never recorded on the strength of a return alone.
 */
export async function esewaReturnVerified(
  config: EsewaConfig,
  data: string,
  expected: { transactionUuid: string; amountPaisa: number },
): Promise<boolean> {
  if (data.length > MAX_ESEWA_DATA_LENGTH) return false;
  let fields: Record<string, unknown>;
  try {
    const binary = atob(data);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
    fields = parsed as Record<string, unknown>;
  } catch {
    return false;
  }
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields))
    if (typeof value === "string" || typeof value === "number") text[name] = String(value);
  const signedNames = text.signed_field_names;
  const signature = text.signature;
  if (signedNames === undefined || signature === undefined) return false;
  const signed = signedNames.split(",");
  if (!RETURN_FIELDS.every((name) => signed.includes(name) && text[name] !== undefined))
    return false;
  const expectedSignature = await esewaSignature(text, signedNames, config.secretKey);
  return (
    sameText(signature, expectedSignature) &&
    text.status === "COMPLETE" &&
    text.transaction_uuid === expected.transactionUuid &&
    text.product_code === config.productCode &&
    paisaOf(text.total_amount) === expected.amountPaisa
  );
}

const ESEWA_OUTCOMES: Record<string, CheckOutcome["kind"]> = {
  PENDING: "pending",
  AMBIGUOUS: "pending",
  NOT_FOUND: "open",
  CANCELED: "canceled",
  FULL_REFUND: "refunded",
  PARTIAL_REFUND: "refunded",
};

/** eSewa's status check for this deployment's transaction and amount. */
export async function esewaStatus(
  config: EsewaConfig,
  transactionUuid: string,
  amountPaisa: number,
): Promise<CheckOutcome> {
  const url = new URL(config.statusUrl);
  url.searchParams.set("product_code", config.productCode);
  url.searchParams.set("total_amount", rupeesText(amountPaisa));
  url.searchParams.set("transaction_uuid", transactionUuid);
  const answer = await request(url, { method: "GET", headers: { Accept: "application/json" } });
  const body = parseJson(answer);
  if (answer?.status !== 200 || body === null) return { kind: "unreachable" };
  if (body.transaction_uuid !== transactionUuid || body.product_code !== config.productCode)
    return { kind: "unreachable" };
  if (body.status === "COMPLETE") {
    if (paisaOf(body.total_amount) !== amountPaisa) return { kind: "amount_mismatch" };
    const refId = typeof body.ref_id === "string" ? body.ref_id.slice(0, 64) : "";
    return { kind: "paid", gatewayId: refId };
  }
  const kind = typeof body.status === "string" ? ESEWA_OUTCOMES[body.status] : undefined;
  return kind === undefined ? { kind: "unreachable" } : ({ kind } as CheckOutcome);
}

// ---------------------------------------------------------------- Khalti

export type KhaltiConfig = { initiateUrl: URL; lookupUrl: URL; secretKey: string };

export function khaltiConfig(): KhaltiConfig | null {
  const base = trimSlash(env.KHALTI_BASE_URL || "https://khalti.com");
  const initiateUrl = gatewayUrl(`${base}/api/v2/epayment/initiate/`, allowLoopback());
  const lookupUrl = gatewayUrl(`${base}/api/v2/epayment/lookup/`, allowLoopback());
  const secretKey = env.KHALTI_SECRET_KEY;
  if (!initiateUrl || !lookupUrl || !secretKey) return null;
  return { initiateUrl, lookupUrl, secretKey };
}

const khaltiHeaders = (config: KhaltiConfig) => ({
  Authorization: `Key ${config.secretKey}`,
  "Content-Type": "application/json",
  Accept: "application/json",
});

const PIDX = /^[A-Za-z0-9_-]{1,64}$/;

export type KhaltiOpened =
  { kind: "opened"; pidx: string; paymentUrl: string } | { kind: "refused" | "unreachable" };

/** Khalti's initiate: the amount in paisa, and where the hosted page sends the customer back. */
export async function khaltiInitiate(
  config: KhaltiConfig,
  order: { purchaseOrderId: string; name: string; amountPaisa: number },
): Promise<KhaltiOpened> {
  const answer = await request(config.initiateUrl, {
    method: "POST",
    headers: khaltiHeaders(config),
    body: JSON.stringify({
      return_url: `${siteUrl()}/pay/khalti`,
      website_url: siteUrl(),
      amount: order.amountPaisa,
      purchase_order_id: order.purchaseOrderId,
      purchase_order_name: order.name,
    }),
  });
  if (answer === null || answer.status >= 500 || answer.status === 429)
    return { kind: "unreachable" };
  const body = parseJson(answer);
  if (answer.status !== 200 || body === null) return { kind: "refused" };
  const { pidx, payment_url: paymentUrl } = body;
  if (typeof pidx !== "string" || !PIDX.test(pidx) || typeof paymentUrl !== "string")
    return { kind: "refused" };
  if (paymentUrl.length > 1024 || gatewayUrl(paymentUrl, allowLoopback()) === null)
    return { kind: "refused" };
  return { kind: "opened", pidx, paymentUrl };
}

const KHALTI_OUTCOMES: Record<string, CheckOutcome["kind"]> = {
  Pending: "pending",
  Initiated: "open",
  Expired: "expired",
  "User canceled": "canceled",
  Refunded: "refunded",
  "Partially Refunded": "refunded",
};

/** Khalti's lookup by pidx; only Completed for this payment's amount pays. */
export async function khaltiLookup(
  config: KhaltiConfig,
  pidx: string,
  amountPaisa: number,
): Promise<CheckOutcome> {
  const answer = await request(config.lookupUrl, {
    method: "POST",
    headers: khaltiHeaders(config),
    body: JSON.stringify({ pidx }),
  });
  const body = parseJson(answer);
  if (answer?.status !== 200 || body === null || body.pidx !== pidx) return { kind: "unreachable" };
  if (body.status === "Completed") {
    if (body.total_amount !== amountPaisa) return { kind: "amount_mismatch" };
    const id = typeof body.transaction_id === "string" ? body.transaction_id.slice(0, 64) : "";
    return { kind: "paid", gatewayId: id };
  }
  const kind = typeof body.status === "string" ? KHALTI_OUTCOMES[body.status] : undefined;
  return kind === undefined ? { kind: "unreachable" } : ({ kind } as CheckOutcome);
}
