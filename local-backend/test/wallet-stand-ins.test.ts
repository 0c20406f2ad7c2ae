// The wallets' stand-ins speak eSewa ePay v2's and Khalti KPG-2's documented protocols on the site
// port: a signed form or an authorised initiate opens a hosted page, a test wallet pays, cancels or
// lets it expire, the merchant is sent back with what the gateway sends, and the status check /
// lookup tells the truth whatever the return said.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Backend } from "../server.ts";
import { ESEWA_TEST_WALLETS, ESEWA_UAT } from "../stand-ins/esewa.ts";
import { KHALTI_LOCAL_KEY, KHALTI_TEST_WALLETS } from "../stand-ins/khalti.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(closeTestBackends);

const sign = (message: string, key = ESEWA_UAT.secretKey) =>
  createHmac("sha256", key).update(message).digest("base64");

function esewaForm(uuid: string, overrides: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    amount: "1400",
    tax_amount: "0",
    product_service_charge: "0",
    product_delivery_charge: "100",
    total_amount: "1500",
    transaction_uuid: uuid,
    product_code: "EPAYTEST",
    success_url: "https://merchant.example/paid",
    failure_url: "https://merchant.example/failed",
    signed_field_names: "total_amount,transaction_uuid,product_code",
    ...overrides,
  };
  fields.signature ??= sign(
    `total_amount=${fields.total_amount},transaction_uuid=${fields.transaction_uuid},product_code=${fields.product_code}`,
  );
  return fields;
}

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${backend.siteUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

async function openEsewa(uuid: string): Promise<string> {
  const opened = await post("/esewa/api/epay/main/v2/form", esewaForm(uuid));
  expect(opened.status).toBe(303);
  return opened.headers.get("location")!;
}

const esewaStatus = async (uuid: string, total = "1500") =>
  (await (
    await fetch(
      `${backend.siteUrl}/esewa/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=${total}&transaction_uuid=${uuid}`,
    )
  ).json()) as { status: string; ref_id: string | null };

const wallet = {
  esewa_id: ESEWA_TEST_WALLETS.ids[0]!,
  password: ESEWA_TEST_WALLETS.password,
  token: ESEWA_TEST_WALLETS.token,
};

describe("eSewa stand-in", () => {
  test("a signed form opens the hosted page; paying returns signed data the status check confirms", async () => {
    const hosted = await openEsewa("gs-pay-1");
    const page = await (await fetch(`${backend.siteUrl}${hosted}`)).text();
    expect(page).toContain("Rs. 1,500.0");
    expect(await esewaStatus("gs-pay-1")).toMatchObject({ status: "NOT_FOUND", ref_id: null });

    const wrong = await post(hosted, { ...wallet, password: "guess", action: "pay" });
    expect(wrong.status).toBe(401);
    const paid = await post(hosted, { ...wallet, action: "pay" });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("https://merchant.example/paid");
    const data = JSON.parse(
      Buffer.from(back.searchParams.get("data")!, "base64").toString(),
    ) as Record<string, string>;
    expect(data).toMatchObject({
      status: "COMPLETE",
      total_amount: "1,500.0",
      transaction_uuid: "gs-pay-1",
      product_code: "EPAYTEST",
    });
    const message = data
      .signed_field_names!.split(",")
      .map((name) => `${name}=${data[name]}`)
      .join(",");
    expect(data.signature).toBe(sign(message));
    expect(await esewaStatus("gs-pay-1")).toMatchObject({
      status: "COMPLETE",
      ref_id: data.transaction_code,
    });
    // the amount is part of what the status check matches
    expect(await esewaStatus("gs-pay-1", "15")).toMatchObject({ status: "NOT_FOUND" });
    // a paid uuid cannot be used again
    expect((await post("/esewa/api/epay/main/v2/form", esewaForm("gs-pay-1"))).status).toBe(409);
  });

  test("cancel and expiry go back to failure_url and never complete", async () => {
    for (const [uuid, action, status] of [
      ["gs-cancel-1", "cancel", "CANCELED"],
      ["gs-expire-1", "expire", "NOT_FOUND"],
    ] as const) {
      const hosted = await openEsewa(uuid);
      const left = await post(hosted, { action });
      expect(left.headers.get("location")).toBe("https://merchant.example/failed");
      expect(await esewaStatus(uuid)).toMatchObject({ status });
      // the page is closed: paying afterwards still goes to failure_url
      const late = await post(hosted, { ...wallet, action: "pay" });
      expect(late.headers.get("location")).toBe("https://merchant.example/failed");
      expect(await esewaStatus(uuid)).toMatchObject({ status });
    }
  });

  test("a bad signature, a wrong total or an unknown product code is refused", async () => {
    for (const form of [
      esewaForm("gs-bad-1", {
        signature: sign("total_amount=1,transaction_uuid=x,product_code=y"),
      }),
      esewaForm("gs-bad-2", { total_amount: "1600" }),
      esewaForm("gs-bad-3", { product_code: "SOMEONE" }),
      esewaForm("gs bad", {}),
    ]) {
      expect((await post("/esewa/api/epay/main/v2/form", form)).status).toBe(400);
    }
  });

  test("the control settles a pending payment and the outage makes the status check fail", async () => {
    await openEsewa("gs-pending-1");
    await post("/esewa/control/status", { transaction_uuid: "gs-pending-1", status: "PENDING" });
    expect(await esewaStatus("gs-pending-1")).toMatchObject({ status: "PENDING" });
    await post("/esewa/control/outage", { down: "true" });
    const down = await fetch(
      `${backend.siteUrl}/esewa/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=1500&transaction_uuid=gs-pending-1`,
    );
    expect(down.status).toBe(503);
    await post("/esewa/control/outage", { down: "false" });
  });
});

const khalti = (path: string, body: unknown, key = KHALTI_LOCAL_KEY) =>
  fetch(`${backend.siteUrl}/khalti/api/v2/epayment/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Key ${key}` },
    body: JSON.stringify(body),
  });

const initiate = async (orderId: string) => {
  const answer = await khalti("initiate/", {
    return_url: "https://merchant.example/khalti",
    website_url: "https://merchant.example",
    amount: 150000,
    purchase_order_id: orderId,
    purchase_order_name: "Booking",
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { pidx: string; payment_url: string; expires_in: number };
};

const lookup = async (pidx: string) =>
  (await (await khalti("lookup/", { pidx })).json()) as Record<string, unknown>;

const khaltiWallet = {
  mobile: KHALTI_TEST_WALLETS.ids[0]!,
  mpin: KHALTI_TEST_WALLETS.mpin,
  otp: KHALTI_TEST_WALLETS.otp,
};

describe("Khalti stand-in", () => {
  test("initiate needs the key and valid fields, with the amount in paisa of at least 1000", async () => {
    expect((await khalti("initiate/", {}, "wrong")).status).toBe(401);
    const invalid = await khalti("initiate/", { amount: 999, return_url: "nope" });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      amount: [expect.any(String)],
      return_url: [expect.any(String)],
      website_url: ["This field is required."],
      error_key: "validation_error",
    });
  });

  test("paying returns to return_url and the lookup says Completed", async () => {
    const { pidx, payment_url } = await initiate("order-pay");
    expect(payment_url).toBe(`${backend.siteUrl}/khalti/pay/?pidx=${pidx}`);
    expect(await lookup(pidx)).toMatchObject({ status: "Initiated", transaction_id: null });
    expect(await (await fetch(payment_url)).text()).toContain("Rs. 1500.00");
    const paid = await post(new URL(payment_url).pathname + new URL(payment_url).search, {
      ...khaltiWallet,
      action: "pay",
    });
    const back = new URL(paid.headers.get("location")!);
    expect(back.pathname).toBe("/khalti");
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      pidx,
      status: "Completed",
      amount: "150000",
      purchase_order_id: "order-pay",
    });
    expect(await lookup(pidx)).toMatchObject({
      pidx,
      status: "Completed",
      total_amount: 150000,
      transaction_id: back.searchParams.get("transaction_id"),
      refunded: false,
    });
  });

  test("cancel and expiry return their own status; unknown pidx is 404", async () => {
    for (const [action, status] of [
      ["cancel", "User canceled"],
      ["expire", "Expired"],
    ] as const) {
      const { pidx, payment_url } = await initiate(`order-${action}`);
      const left = await post(new URL(payment_url).pathname + new URL(payment_url).search, {
        action,
      });
      expect(new URL(left.headers.get("location")!).searchParams.get("status")).toBe(status);
      expect(await lookup(pidx)).toMatchObject({ status });
    }
    expect((await khalti("lookup/", { pidx: "nope" })).status).toBe(404);
    expect((await khalti("lookup/", { pidx: "nope" }, "wrong")).status).toBe(401);
  });

  test("the control sets Pending, Refunded and the rest; the outage fails the lookup", async () => {
    const { pidx } = await initiate("order-control");
    for (const status of ["Pending", "Completed", "Refunded"]) {
      await post("/khalti/control/status", { pidx, status });
      expect(await lookup(pidx)).toMatchObject({ status, refunded: status === "Refunded" });
    }
    await post("/khalti/control/outage", { down: "true" });
    expect((await khalti("lookup/", { pidx })).status).toBe(503);
    await post("/khalti/control/outage", { down: "false" });
  });
});
