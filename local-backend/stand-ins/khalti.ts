// Khalti KPG-2's stand-in, served under /khalti on the site port, so that convex/model/wallets/ pays
// offline exactly as it pays against Khalti's sandbox (dev.khalti.com) or production (khalti.com):
//   POST /khalti/api/v2/epayment/initiate/  Authorization: Key <secret>; JSON return_url, website_url,
//                                           amount (paisa, at least 1000), purchase_order_id,
//                                           purchase_order_name → {pidx, payment_url, expires_at, expires_in}
//   GET  /khalti/pay/?pidx=…                the hosted page: a test wallet signs in and pays, cancels
//   POST /khalti/pay/?pidx=…                or lets it expire; each returns to return_url with pidx,
//                                           status, amounts, transaction_id and purchase_order_id
//   POST /khalti/api/v2/epayment/lookup/    Authorization: Key <secret>; JSON {pidx} → {pidx,
//                                           total_amount, status, transaction_id, fee, refunded}
//   POST /khalti/control/status {pidx, status}, /khalti/control/outage {down}
//                                           for tests and drills: settle a payment some other way,
//                                           or make the lookup answer 503
// Served on the local backend's site port only; a deployment has no such route.
import { randomBytes } from "node:crypto";
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

export const KHALTI_PREFIX = "/khalti";
/** The key the local backend hands its functions (a sandbox merchant's key has the same role). */
export const KHALTI_LOCAL_KEY = "local-khalti-secret-key";
/** Khalti's published sandbox wallets, their MPIN and OTP. */
export const KHALTI_TEST_WALLETS = {
  ids: ["9800000000", "9800000001", "9800000002", "9800000003", "9800000004", "9800000005"],
  mpin: "1111",
  otp: "987654",
};
export const KHALTI_STATUSES = [
  "Completed",
  "Pending",
  "Initiated",
  "Refunded",
  "Partially Refunded",
  "Expired",
  "User canceled",
] as const;
type KhaltiStatus = (typeof KHALTI_STATUSES)[number];

const BRAND: Brand = { name: "Khalti", color: "#5c2d91" };
const MIN_AMOUNT = 1000;

type Payment = {
  pidx: string;
  amount: number;
  orderId: string;
  orderName: string;
  returnUrl: string;
  status: KhaltiStatus;
  transactionId: string | null;
  mobile: string | null;
  expiresAt: number;
};

export class KhaltiStandIn {
  private readonly payments = new BoundedMap<Payment>();
  private down = false;

  /** `siteUrl`: where this stand-in is reached, for the `payment_url` it hands out. */
  constructor(
    private readonly siteUrl: string,
    private readonly secretKey: string = KHALTI_LOCAL_KEY,
  ) {}

  static matches(pathname: string): boolean {
    return pathname === KHALTI_PREFIX || pathname.startsWith(`${KHALTI_PREFIX}/`);
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | undefined {
    const route = `${req.method} ${url.pathname.slice(KHALTI_PREFIX.length)}`;
    switch (route) {
      case "POST /api/v2/epayment/initiate/":
        return this.initiate(req, res);
      case "POST /api/v2/epayment/lookup/":
        return this.lookup(req, res);
      case "GET /pay/":
        return void this.hosted(res, url.searchParams.get("pidx") ?? "");
      case "POST /pay/":
        return this.act(req, res, url.searchParams.get("pidx") ?? "");
      case "POST /control/status":
        return this.control(req, res);
      case "POST /control/outage":
        return this.outage(req, res);
      default:
        json(res, 404, { detail: "Not found." });
    }
  }

  private authorized(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.headers.authorization === `Key ${this.secretKey}`) return true;
    json(res, 401, { detail: "Invalid token.", status_code: 401 });
    return false;
  }

  private async initiate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.authorized(req, res)) return;
    const body = await bodyFields(req);
    if (body === null)
      return json(res, 400, { detail: "Invalid JSON body.", error_key: "validation_error" });
    const errors: Record<string, string[]> = {};
    for (const name of [
      "return_url",
      "website_url",
      "amount",
      "purchase_order_id",
      "purchase_order_name",
    ])
      if ((body[name] ?? "") === "") errors[name] = ["This field is required."];
    for (const name of ["return_url", "website_url"])
      if (body[name] && !isHttpUrl(body[name])) errors[name] = ["Enter a valid URL."];
    const amount = Number(body.amount);
    if (body.amount && (!Number.isInteger(amount) || amount < MIN_AMOUNT))
      errors.amount = ["Amount should be greater than Rs. 10, that is 1000 paisa."];
    if (Object.keys(errors).length > 0)
      return json(res, 400, { ...errors, error_key: "validation_error" });
    const payment: Payment = {
      pidx: randomBytes(16).toString("base64url").slice(0, 22),
      amount,
      orderId: body.purchase_order_id!,
      orderName: body.purchase_order_name!,
      returnUrl: body.return_url!,
      status: "Initiated",
      transactionId: null,
      mobile: null,
      expiresAt: Date.now() + WALLET_LIMITS.expiryMs,
    };
    this.payments.set(payment.pidx, payment);
    json(res, 200, {
      pidx: payment.pidx,
      payment_url: `${this.siteUrl}${KHALTI_PREFIX}/pay/?pidx=${payment.pidx}`,
      expires_at: new Date(payment.expiresAt).toISOString(),
      expires_in: WALLET_LIMITS.expiryMs / 1000,
    });
  }

  private live(pidx: string): Payment | undefined {
    const payment = this.payments.get(pidx);
    if (payment?.status === "Initiated" && Date.now() > payment.expiresAt)
      payment.status = "Expired";
    return payment;
  }

  private hosted(res: ServerResponse, pidx: string, error?: string): void {
    const payment = this.live(pidx);
    if (payment === undefined) return problemPage(res, BRAND, 404, "No such payment.");
    if (payment.status !== "Initiated")
      return problemPage(res, BRAND, 410, `This payment is closed (${payment.status}).`);
    checkoutPage(res, BRAND, {
      merchant: payment.orderName,
      amountText: `Rs. ${(payment.amount / 100).toFixed(2)}`,
      reference: payment.orderId,
      expiresAt: payment.expiresAt,
      fields: [
        { name: "mobile", label: "Khalti ID (mobile)", type: "text", autocomplete: "username" },
        { name: "mpin", label: "MPIN", type: "password", autocomplete: "current-password" },
        { name: "otp", label: "OTP", type: "text", autocomplete: "one-time-code" },
      ],
      hint: `Test wallets: ${KHALTI_TEST_WALLETS.ids.join(", ")}; MPIN ${KHALTI_TEST_WALLETS.mpin}; OTP ${KHALTI_TEST_WALLETS.otp}.`,
      error,
    });
  }

  private async act(req: IncomingMessage, res: ServerResponse, pidx: string): Promise<void> {
    const fields = await bodyFields(req);
    const payment = this.live(pidx);
    if (payment === undefined) return problemPage(res, BRAND, 404, "No such payment.");
    if (payment.status === "Initiated" && fields !== null) {
      if (fields.action === "cancel") payment.status = "User canceled";
      else if (fields.action === "expire") payment.status = "Expired";
      else {
        const { ids, mpin, otp } = KHALTI_TEST_WALLETS;
        if (!ids.includes(fields.mobile ?? "") || fields.mpin !== mpin || fields.otp !== otp)
          return this.hosted(res, pidx, "Wrong Khalti ID, MPIN or OTP.");
        payment.status = "Completed";
        payment.transactionId = randomBytes(16).toString("base64url").slice(0, 22);
        payment.mobile = fields.mobile!;
      }
    }
    redirect(res, this.returnUrl(payment));
  }

  /** return_url with what Khalti's callback carries (a merchant must still look the payment up). */
  private returnUrl(payment: Payment): URL {
    const back = new URL(payment.returnUrl);
    const q = back.searchParams;
    q.set("pidx", payment.pidx);
    q.set("transaction_id", payment.transactionId ?? "");
    q.set("tidx", payment.transactionId ?? "");
    q.set("txnId", payment.transactionId ?? "");
    q.set("amount", String(payment.amount));
    q.set("total_amount", String(payment.amount));
    q.set(
      "mobile",
      payment.mobile === null
        ? ""
        : `${payment.mobile.slice(0, 2)}XXXXX${payment.mobile.slice(-3)}`,
    );
    q.set("status", payment.status);
    q.set("purchase_order_id", payment.orderId);
    q.set("purchase_order_name", payment.orderName);
    return back;
  }

  private async lookup(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.authorized(req, res)) return;
    if (this.down) return json(res, 503, { detail: "Service unavailable." });
    const body = await bodyFields(req);
    const payment = this.live(body?.pidx ?? "");
    if (payment === undefined)
      return json(res, 404, { detail: "Not found.", error_key: "validation_error" });
    json(res, 200, {
      pidx: payment.pidx,
      total_amount: payment.amount,
      status: payment.status,
      transaction_id: payment.transactionId,
      fee: 0,
      refunded: payment.status === "Refunded" || payment.status === "Partially Refunded",
    });
  }

  private async control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fields = await bodyFields(req);
    const payment = this.payments.get(fields?.pidx ?? "");
    const status = fields?.status as KhaltiStatus | undefined;
    if (payment === undefined || status === undefined || !KHALTI_STATUSES.includes(status))
      return json(res, 400, { error: "pidx and a status of KHALTI_STATUSES" });
    payment.status = status;
    if (status === "Completed")
      payment.transactionId ??= randomBytes(16).toString("base64url").slice(0, 22);
    json(res, 200, { pidx: payment.pidx, status });
  }

  private async outage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fields = await bodyFields(req);
    this.down = fields?.down === "true";
    json(res, 200, { down: this.down });
  }
}
