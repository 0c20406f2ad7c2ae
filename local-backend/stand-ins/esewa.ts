// eSewa ePay v2's stand-in, served under /esewa on the site port, so that convex/model/wallets/
// pays offline exactly as it pays against eSewa's UAT (rc-epay.esewa.com.np) or production host:
//   POST /esewa/api/epay/main/v2/form          the merchant's signed form (amounts in rupees); a
//                                              valid one opens the hosted page, a bad one an error page
//   GET  /esewa/pay/<id>                       the hosted page: a test wallet signs in and pays, cancels
//   POST /esewa/pay/<id>                       or lets it expire; paying redirects to success_url with
//                                              ?data=<base64 JSON signed over signed_field_names>,
//                                              the rest to failure_url
//   GET  /esewa/api/epay/transaction/status/?product_code&total_amount&transaction_uuid
//                                              the status check: COMPLETE, PENDING, FULL_REFUND,
//                                              PARTIAL_REFUND, AMBIGUOUS, NOT_FOUND or CANCELED
//   POST /esewa/control/status {transaction_uuid, status}, /esewa/control/outage {down}
//                                              for tests and drills: settle a payment some other way,
//                                              or make the status check answer 503
// Served on the local backend's site port only; a deployment has no such route.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  BoundedMap,
  bodyFields,
  checkoutPage,
  isHttpUrl,
  json,
  problemPage,
  redirect,
  WALLET_LIMITS,
  type Brand,
} from "./wallet-pages.ts";

export const ESEWA_PREFIX = "/esewa";
/** eSewa's published UAT merchant: product code and secret key (developer.esewa.com.np). */
export const ESEWA_UAT = { productCode: "EPAYTEST", secretKey: "8gBm/:&EnhH.1/q" };
/** eSewa's published UAT wallets, their password and OTP token. */
export const ESEWA_TEST_WALLETS = {
  ids: ["9806800001", "9806800002", "9806800003", "9806800004", "9806800005"],
  password: "Nepal@123",
  token: "123456",
};

export const ESEWA_STATUSES = [
  "COMPLETE",
  "PENDING",
  "FULL_REFUND",
  "PARTIAL_REFUND",
  "AMBIGUOUS",
  "NOT_FOUND",
  "CANCELED",
] as const;
type EsewaStatus = (typeof ESEWA_STATUSES)[number];

const BRAND: Brand = { name: "eSewa", color: "#41a124" };
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const UUID = /^[A-Za-z0-9-]{1,64}$/;
const FORM_FIELDS = [
  "amount",
  "tax_amount",
  "total_amount",
  "transaction_uuid",
  "product_code",
  "product_service_charge",
  "product_delivery_charge",
  "success_url",
  "failure_url",
  "signed_field_names",
  "signature",
] as const;
const RESPONSE_FIELDS =
  "transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names";

type Payment = {
  id: string;
  uuid: string;
  productCode: string;
  totalPaisa: number;
  successUrl: string;
  failureUrl: string;
  status: EsewaStatus;
  refId: string | null;
  /** The hosted page takes no more input once paid, cancelled or expired. */
  open: boolean;
  expiresAt: number;
};

export type EsewaKeys = { productCode: string; secretKey: string };

/** HMAC-SHA256, base64, over `name=value` of each signed field in the order given. */
export function esewaSignature(
  fields: Record<string, string>,
  signedFieldNames: string,
  secretKey: string,
): string {
  const message = signedFieldNames
    .split(",")
    .map((name) => `${name}=${fields[name] ?? ""}`)
    .join(",");
  return createHmac("sha256", secretKey).update(message).digest("base64");
}

const toPaisa = (rupees: string) => {
  const [whole, fraction = ""] = rupees.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};

/** "1,500.0" or "1,500.50", as eSewa writes `total_amount` in the signed response. */
export function esewaResponseAmount(paisa: number): string {
  const rupees = Math.floor(paisa / 100).toLocaleString("en-US");
  const rest = paisa % 100;
  return rest === 0 ? `${rupees}.0` : `${rupees}.${String(rest).padStart(2, "0")}`;
}

export class EsewaStandIn {
  private readonly payments = new BoundedMap<Payment>();
  private readonly byUuid = new BoundedMap<string>();
  private down = false;

  constructor(private readonly keys: EsewaKeys = ESEWA_UAT) {}

  static matches(pathname: string): boolean {
    return pathname === ESEWA_PREFIX || pathname.startsWith(`${ESEWA_PREFIX}/`);
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | undefined {
    const path = url.pathname.slice(ESEWA_PREFIX.length);
    if (req.method === "POST" && path === "/api/epay/main/v2/form") return this.form(req, res);
    if (req.method === "GET" && path === "/api/epay/transaction/status/")
      return void this.status(res, url);
    if (req.method === "POST" && path === "/control/status") return this.control(req, res);
    if (req.method === "POST" && path === "/control/outage") return this.outage(req, res);
    const hosted = /^\/pay\/([A-Za-z0-9_-]+)$/.exec(path);
    if (hosted !== null && req.method === "GET") return void this.hosted(res, hosted[1]!);
    if (hosted !== null && req.method === "POST") return this.act(req, res, hosted[1]!);
    json(res, 404, { error: "Not found" });
  }

  private async form(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fields = await bodyFields(req);
    const refuse = (message: string) => problemPage(res, BRAND, 400, message);
    if (fields === null) return refuse("The payment form could not be read.");
    const missing = FORM_FIELDS.filter((name) => fields[name] === undefined);
    if (missing.length > 0) return refuse(`Missing form fields: ${missing.join(", ")}.`);
    const f = fields as Record<(typeof FORM_FIELDS)[number], string>;
    if (f.product_code !== this.keys.productCode) return refuse("Unknown merchant product code.");
    const amounts = [f.amount, f.tax_amount, f.product_service_charge, f.product_delivery_charge];
    if (![...amounts, f.total_amount].every((a) => AMOUNT.test(a)))
      return refuse("Amounts must be numbers in rupees.");
    const totalPaisa = toPaisa(f.total_amount);
    if (totalPaisa <= 0 || amounts.reduce((sum, a) => sum + toPaisa(a), 0) !== totalPaisa)
      return refuse("total_amount is not the sum of the amounts.");
    if (!UUID.test(f.transaction_uuid))
      return refuse("transaction_uuid may hold only letters, digits and hyphens.");
    if (!isHttpUrl(f.success_url) || !isHttpUrl(f.failure_url))
      return refuse("success_url and failure_url must be http(s) URLs.");
    const signed = f.signed_field_names.split(",");
    if (!["total_amount", "transaction_uuid", "product_code"].every((n) => signed.includes(n)))
      return refuse("signed_field_names must cover total_amount, transaction_uuid, product_code.");
    const expected = Buffer.from(esewaSignature(f, f.signed_field_names, this.keys.secretKey));
    const given = Buffer.from(f.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return refuse("Invalid signature.");
    const known = this.byUuid.get(f.transaction_uuid);
    const existing = known === undefined ? undefined : this.payments.get(known);
    if (existing !== undefined) {
      if (existing.totalPaisa !== totalPaisa || !existing.open)
        return problemPage(res, BRAND, 409, "This transaction_uuid was used already.");
      return redirectLocal(res, `${ESEWA_PREFIX}/pay/${existing.id}`);
    }
    const payment: Payment = {
      id: randomBytes(12).toString("base64url"),
      uuid: f.transaction_uuid,
      productCode: f.product_code,
      totalPaisa,
      successUrl: f.success_url,
      failureUrl: f.failure_url,
      status: "NOT_FOUND",
      refId: null,
      open: true,
      expiresAt: Date.now() + WALLET_LIMITS.expiryMs,
    };
    this.payments.set(payment.id, payment);
    this.byUuid.set(payment.uuid, payment.id);
    redirectLocal(res, `${ESEWA_PREFIX}/pay/${payment.id}`);
  }

  private live(id: string): Payment | undefined {
    const payment = this.payments.get(id);
    if (payment?.open && Date.now() > payment.expiresAt) payment.open = false;
    return payment;
  }

  private hosted(res: ServerResponse, id: string, error?: string): void {
    const payment = this.live(id);
    if (payment === undefined) return problemPage(res, BRAND, 404, "No such payment.");
    if (!payment.open) return problemPage(res, BRAND, 410, "This payment is closed.");
    checkoutPage(res, BRAND, {
      merchant: payment.productCode,
      amountText: `Rs. ${esewaResponseAmount(payment.totalPaisa)}`,
      reference: payment.uuid,
      expiresAt: payment.expiresAt,
      fields: [
        { name: "esewa_id", label: "eSewa ID", type: "text", autocomplete: "username" },
        { name: "password", label: "Password", type: "password", autocomplete: "current-password" },
        { name: "token", label: "OTP token", type: "text", autocomplete: "one-time-code" },
      ],
      hint: `Test wallets: ${ESEWA_TEST_WALLETS.ids.join(", ")}; password ${ESEWA_TEST_WALLETS.password}; token ${ESEWA_TEST_WALLETS.token}.`,
      error,
    });
  }

  private async act(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const fields = await bodyFields(req);
    const payment = this.live(id);
    if (payment === undefined) return problemPage(res, BRAND, 404, "No such payment.");
    if (!payment.open || fields === null) {
      // an expired page still sends the customer back to the merchant, as eSewa does
      return redirect(res, new URL(payment.failureUrl));
    }
    if (fields.action === "cancel" || fields.action === "expire") {
      payment.open = false;
      if (fields.action === "cancel") payment.status = "CANCELED";
      return redirect(res, new URL(payment.failureUrl));
    }
    const { ids, password, token } = ESEWA_TEST_WALLETS;
    if (
      !ids.includes(fields.esewa_id ?? "") ||
      fields.password !== password ||
      fields.token !== token
    )
      return this.hosted(res, id, "Wrong eSewa ID, password or token.");
    payment.open = false;
    payment.status = "COMPLETE";
    payment.refId = randomBytes(4).toString("hex").toUpperCase().slice(0, 7);
    const data: Record<string, string> = {
      transaction_code: payment.refId,
      status: payment.status,
      total_amount: esewaResponseAmount(payment.totalPaisa),
      transaction_uuid: payment.uuid,
      product_code: payment.productCode,
      signed_field_names: RESPONSE_FIELDS,
    };
    data.signature = esewaSignature(data, RESPONSE_FIELDS, this.keys.secretKey);
    const back = new URL(payment.successUrl);
    back.searchParams.set("data", Buffer.from(JSON.stringify(data)).toString("base64"));
    redirect(res, back);
  }

  private status(res: ServerResponse, url: URL): void {
    if (this.down) return json(res, 503, { error_message: "Service is currently unavailable" });
    const q = url.searchParams;
    const [productCode, total, uuid] = ["product_code", "total_amount", "transaction_uuid"].map(
      (k) => q.get(k) ?? "",
    );
    if (productCode === "" || total === "" || uuid === "")
      return json(res, 400, { code: 0, error_message: "Invalid request parameters" });
    const known = this.byUuid.get(uuid);
    const payment = known === undefined ? undefined : this.live(known);
    const matches =
      payment !== undefined &&
      payment.productCode === productCode &&
      AMOUNT.test(total) &&
      toPaisa(total) === payment.totalPaisa;
    json(res, 200, {
      product_code: productCode,
      transaction_uuid: uuid,
      total_amount: Number(total) || 0,
      status: matches ? payment.status : "NOT_FOUND",
      ref_id: matches ? payment.refId : null,
    });
  }

  private async control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fields = await bodyFields(req);
    const known = this.byUuid.get(fields?.transaction_uuid ?? "");
    const payment = known === undefined ? undefined : this.payments.get(known);
    const status = fields?.status as EsewaStatus | undefined;
    if (payment === undefined || status === undefined || !ESEWA_STATUSES.includes(status))
      return json(res, 400, { error: "transaction_uuid and a status of ESEWA_STATUSES" });
    payment.status = status;
    if (status === "COMPLETE") payment.refId ??= randomBytes(4).toString("hex").toUpperCase();
    if (status !== "PENDING") payment.open = false;
    json(res, 200, { transaction_uuid: payment.uuid, status });
  }

  private async outage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fields = await bodyFields(req);
    this.down = fields?.down === "true";
    json(res, 200, { down: this.down });
  }
}

/** A redirect to a path of this same server (the request's own origin). */
function redirectLocal(res: ServerResponse, path: string): void {
  res.writeHead(303, { Location: path, "Cache-Control": "no-store" });
  res.end();
}
