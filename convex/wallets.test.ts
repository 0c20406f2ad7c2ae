import { createHmac } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { openBill } from "./model/bill";
import { RECHECK_DELAYS_MS } from "./rules/wallets";
import {
  bookingRow,
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  useAuthEnv,
  type Caller,
  type TestConvex,
} from "./test.setup";

// every payment the ledger is asked to record, to count them
const recorded = vi.hoisted(() => [] as { reference: string; amountPaisa: number }[]);
vi.mock("./model/ledger", async (importOriginal) => {
  const ledger = await importOriginal<typeof import("./model/ledger")>();
  return {
    ...ledger,
    recordPayment: async (...args: Parameters<typeof ledger.recordPayment>) => {
      const result = await ledger.recordPayment(...args);
      if (result === "recorded") recorded.push(args[1]);
      return result;
    },
  };
});

const SECRET = "8gBm/:&EnhH.1/q";
const ENV = {
  ESEWA_BASE_URL: "https://rc-epay.esewa.com.np",
  ESEWA_STATUS_URL: "https://rc.esewa.com.np",
  ESEWA_PRODUCT_CODE: "EPAYTEST",
  ESEWA_SECRET_KEY: SECRET,
  KHALTI_BASE_URL: "https://dev.khalti.com",
  KHALTI_SECRET_KEY: "test_secret_key",
  SITE_URL: "https://gharsewa.example",
};

beforeAll(useAuthEnv);
beforeEach(() => {
  for (const [name, value] of Object.entries(ENV)) vi.stubEnv(name, value);
  recorded.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

const sign = (message: string, key = SECRET) =>
  createHmac("sha256", key).update(message).digest("base64");

/** What the fake gateways answer: eSewa's status by transaction_uuid, Khalti's lookup by pidx. */
type Gateway = {
  esewa: Map<string, { status: string; total_amount?: number }>;
  khalti: Map<string, { status: string; total_amount?: number }>;
  down: boolean;
  calls: string[];
};

function fakeGateways(): Gateway {
  const gateway: Gateway = { esewa: new Map(), khalti: new Map(), down: false, calls: [] };
  let pidxCount = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: URL, init: RequestInit) => {
      const url = new URL(input);
      gateway.calls.push(url.pathname);
      if (gateway.down) throw new TypeError("fetch failed");
      if (url.origin === "https://rc.esewa.com.np") {
        const uuid = url.searchParams.get("transaction_uuid")!;
        const known = gateway.esewa.get(uuid) ?? { status: "NOT_FOUND" };
        return Response.json({
          product_code: url.searchParams.get("product_code"),
          transaction_uuid: uuid,
          total_amount: known.total_amount ?? Number(url.searchParams.get("total_amount")),
          status: known.status,
          ref_id: known.status === "COMPLETE" ? "0007VZ4" : null,
        });
      }
      const headers = new Headers(init.headers);
      if (headers.get("authorization") !== "Key test_secret_key")
        return Response.json({ detail: "Invalid token." }, { status: 401 });
      const body = JSON.parse(init.body as string) as Record<string, unknown>;
      if (url.pathname === "/api/v2/epayment/initiate/") {
        const pidx = `pidx${++pidxCount}`;
        gateway.khalti.set(pidx, { status: "Initiated", total_amount: body.amount as number });
        return Response.json({
          pidx,
          payment_url: `https://test-pay.khalti.com/?pidx=${pidx}`,
          expires_in: 1800,
        });
      }
      const known = gateway.khalti.get(body.pidx as string);
      if (known === undefined) return Response.json({ detail: "Not found." }, { status: 404 });
      return Response.json({
        pidx: body.pidx,
        total_amount: known.total_amount,
        status: known.status,
        transaction_id: known.status === "Completed" ? "GFq9PFS7b2iYvL8Lir9oXe" : null,
        fee: 0,
        refunded: known.status === "Refunded",
      });
    }),
  );
  return gateway;
}

/** eSewa's `data` for a return to success_url, signed with `key`. */
function esewaData(fields: Record<string, string>, key = SECRET) {
  const data: Record<string, string> = {
    transaction_code: "0007VZ4",
    status: "COMPLETE",
    product_code: "EPAYTEST",
    signed_field_names:
      "transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names",
    ...fields,
  };
  data.signature ??= sign(
    data
      .signed_field_names!.split(",")
      .map((name) => `${name}=${data[name]}`)
      .join(","),
    key,
  );
  return Buffer.from(JSON.stringify(data)).toString("base64");
}

async function setup() {
  vi.useFakeTimers();
  const t = newTest();
  const gateway = fakeGateways();
  const sita = await insertCustomer(t);
  const gita = await insertCustomer(t, "Gita Rai");
  const ram = await insertProfessional(t);
  const admin = await insertAdmin(t);
  // bills of Nrs. 1,500 and Nrs. 900 (model/bill.ts)
  const billed = (customerId: Id<"users">, price: number) =>
    t.run(async (ctx) => {
      const id = await ctx.db.insert(
        "bookings",
        bookingRow(customerId, ram, "completed", { price }),
      );
      await openBill(ctx, id, [{ name: "Fan repair", price }], 0);
      return id;
    });
  const bookingId = await billed(sita.userId, 1500);
  const gitaBooking = await billed(gita.userId, 900);
  return { t, gateway, sita, gita, ram, admin, bookingId, gitaBooking };
}

/** Runs what is due now (a return's check, Khalti's initiate), not the scheduled re-checks. */
async function runDue(t: TestConvex) {
  vi.advanceTimersByTime(1);
  await t.finishInProgressScheduledFunctions();
}

/** Every scheduled re-check, as the cron starts them (crons.ts), until none is due any more. */
async function runRechecks(t: TestConvex) {
  for (const delay of RECHECK_DELAYS_MS) {
    vi.advanceTimersByTime(delay + 1);
    await t.mutation(internal.wallets.startDueChecks, {});
    await runDue(t);
  }
}

const stateOf = async (as: Caller, attemptId: Id<"paymentAttempts">) =>
  await as.query(api.wallets.attempt, { attemptId });

async function startEsewa(as: Caller, bookingId: Id<"bookings">) {
  const started = await as.mutation(api.wallets.start, { bookingId, method: "esewa" });
  return { attemptId: started.attemptId, form: started.esewa! };
}

describe("paying by eSewa", () => {
  test("the form is eSewa's v2 form in rupees, signed over total_amount, transaction_uuid, product_code", async () => {
    const { sita, bookingId } = await setup();
    const { form } = await startEsewa(sita.as, bookingId);
    expect(form.url).toBe("https://rc-epay.esewa.com.np/api/epay/main/v2/form");
    const f = form.fields;
    expect(f).toMatchObject({
      amount: "1500",
      tax_amount: "0",
      total_amount: "1500",
      product_code: "EPAYTEST",
      product_service_charge: "0",
      product_delivery_charge: "0",
      success_url: `https://gharsewa.example/pay/esewa/${f.transaction_uuid}`,
      failure_url: `https://gharsewa.example/pay/esewa/${f.transaction_uuid}/failed`,
      signed_field_names: "total_amount,transaction_uuid,product_code",
    });
    expect(f.transaction_uuid).toMatch(/^[A-Za-z0-9-]+$/);
    expect(f.signature).toBe(
      sign(`total_amount=1500,transaction_uuid=${f.transaction_uuid},product_code=EPAYTEST`),
    );
  });

  test("a signed return the status check confirms pays once; replays and double opens do not pay again", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    const uuid = form.fields.transaction_uuid!;
    gateway.esewa.set(uuid, { status: "COMPLETE" });
    const data = esewaData({ total_amount: "1,500.0", transaction_uuid: uuid });
    expect(await sita.as.mutation(api.wallets.esewaReturned, { transactionUuid: uuid, data })).toBe(
      attemptId,
    );
    expect(await stateOf(sita.as, attemptId)).toMatchObject({ state: "checking" });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "paid",
      gatewayId: "0007VZ4",
    });
    expect(recorded).toEqual([
      expect.objectContaining({
        bookingId,
        method: "esewa",
        amountPaisa: 150_000,
        reference: uuid,
      }),
    ]);
    // the same return again, twice, and every scheduled re-check: still one payment
    for (let i = 0; i < 2; i++)
      await sita.as.mutation(api.wallets.esewaReturned, { transactionUuid: uuid, data });
    await runDue(t);
    await runRechecks(t);
    expect(recorded).toHaveLength(1);
    // and the booking cannot be paid again
    expect(
      await errorCode(sita.as.mutation(api.wallets.start, { bookingId, method: "esewa" })),
    ).toBe("ALREADY_PAID");
  });

  test("two attempts both completed at eSewa record only the first", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const first = await startEsewa(sita.as, bookingId);
    const second = await startEsewa(sita.as, bookingId);
    for (const { form } of [first, second]) {
      const uuid = form.fields.transaction_uuid!;
      gateway.esewa.set(uuid, { status: "COMPLETE" });
      await sita.as.mutation(api.wallets.esewaReturned, {
        transactionUuid: uuid,
        data: esewaData({ total_amount: "1,500.0", transaction_uuid: uuid }),
      });
      await runDue(t);
    }
    expect(recorded).toHaveLength(1);
    expect(await stateOf(sita.as, first.attemptId)).toMatchObject({ state: "paid" });
    expect(await stateOf(sita.as, second.attemptId)).toMatchObject({
      state: "failed",
      problem: "already_paid",
    });
  });

  test("a forged, altered or foreign-signed return asks nothing and pays nothing", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    const uuid = form.fields.transaction_uuid!;
    // eSewa itself would say COMPLETE: the forgeries must not even get that far
    gateway.esewa.set(uuid, { status: "COMPLETE" });
    const genuine = JSON.parse(
      Buffer.from(
        esewaData({ total_amount: "1,500.0", transaction_uuid: uuid }),
        "base64",
      ).toString(),
    ) as Record<string, string>;
    const forgeries = [
      esewaData({ total_amount: "1,500.0", transaction_uuid: uuid }, "guessed-key"),
      Buffer.from(JSON.stringify({ ...genuine, total_amount: "15.0" })).toString("base64"),
      esewaData({ total_amount: "15.0", transaction_uuid: uuid }),
      esewaData({ total_amount: "1,500.0", transaction_uuid: uuid, status: "PENDING" }),
      esewaData({ total_amount: "1,500.0", transaction_uuid: uuid, product_code: "OTHER" }),
      esewaData({
        total_amount: "1,500.0",
        transaction_uuid: uuid,
        signed_field_names: "transaction_code,signed_field_names",
      }),
      "not base64 at all!",
      Buffer.from("[1,2]").toString("base64"),
    ];
    for (const data of forgeries) {
      await sita.as.mutation(api.wallets.esewaReturned, { transactionUuid: uuid, data });
      await runDue(t);
      expect(await stateOf(sita.as, attemptId)).toMatchObject({
        state: "open",
        problem: "unverified",
      });
    }
    expect(gateway.calls).toEqual([]);
    expect(recorded).toEqual([]);
  });

  test("the status check decides: an amount eSewa did not take, pending, cancelled, refunded", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const cases = [
      [
        { status: "COMPLETE", total_amount: 15 },
        { state: "failed", problem: "amount_mismatch" },
      ],
      [{ status: "PENDING" }, { state: "pending" }],
      [{ status: "AMBIGUOUS" }, { state: "pending" }],
      [{ status: "CANCELED" }, { state: "canceled" }],
      [{ status: "FULL_REFUND" }, { state: "refunded" }],
      [{ status: "NOT_FOUND" }, { state: "open" }],
    ] as const;
    for (const [answer, expected] of cases) {
      const { attemptId, form } = await startEsewa(sita.as, bookingId);
      const uuid = form.fields.transaction_uuid!;
      gateway.esewa.set(uuid, answer);
      await sita.as.mutation(api.wallets.esewaReturned, {
        transactionUuid: uuid,
        data: esewaData({ total_amount: "1,500.0", transaction_uuid: uuid }),
      });
      await runDue(t);
      expect(await stateOf(sita.as, attemptId)).toMatchObject({ problem: null, ...expected });
    }
    expect(recorded).toEqual([]);
  });

  test("coming back through failure_url reads as cancelled when eSewa knows no payment", async () => {
    const { t, sita, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    await sita.as.mutation(api.wallets.esewaReturned, {
      transactionUuid: form.fields.transaction_uuid!,
    });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({ state: "canceled" });
  });

  test("a pending payment is re-checked on schedule until it completes", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    const uuid = form.fields.transaction_uuid!;
    gateway.esewa.set(uuid, { status: "PENDING" });
    vi.advanceTimersByTime(RECHECK_DELAYS_MS[0]! + 1);
    await t.mutation(internal.wallets.startDueChecks, {});
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({ state: "pending" });
    gateway.esewa.set(uuid, { status: "COMPLETE" });
    await runRechecks(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({ state: "paid" });
    expect(recorded).toHaveLength(1);
  });

  test("a gateway that never answers pays nothing; the re-checks stop and say so", async () => {
    const { t, gateway, sita, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    const uuid = form.fields.transaction_uuid!;
    gateway.down = true;
    await sita.as.mutation(api.wallets.esewaReturned, {
      transactionUuid: uuid,
      data: esewaData({ total_amount: "1,500.0", transaction_uuid: uuid }),
    });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "pending",
      problem: "unreachable",
    });
    await runRechecks(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "failed",
      problem: "unreachable",
    });
    // one immediate check plus one per scheduled round, no more
    expect(gateway.calls).toHaveLength(1 + RECHECK_DELAYS_MS.length);
    expect(recorded).toEqual([]);
  });
});

const khaltiCases = [
  ["Completed", { state: "paid", gatewayId: "GFq9PFS7b2iYvL8Lir9oXe" }],
  ["Pending", { state: "pending" }],
  ["Initiated", { state: "open" }],
  ["Expired", { state: "expired" }],
  ["User canceled", { state: "canceled" }],
  ["Refunded", { state: "refunded" }],
] as const;

async function startKhalti(t: TestConvex, as: Caller, bookingId: Id<"bookings">) {
  const { attemptId } = await as.mutation(api.wallets.start, { bookingId, method: "khalti" });
  expect(await stateOf(as, attemptId)).toMatchObject({ state: "opening", paymentUrl: null });
  await runDue(t);
  const opened = (await stateOf(as, attemptId))!;
  return { attemptId, pidx: new URL(opened.paymentUrl!).searchParams.get("pidx")! };
}

describe("paying by Khalti", () => {
  test("initiate sends the bill in paisa and the customer gets Khalti's payment_url", async () => {
    const { t, sita, bookingId } = await setup();
    const { attemptId, pidx } = await startKhalti(t, sita.as, bookingId);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "open",
      amountPaisa: 150_000,
      paymentUrl: `https://test-pay.khalti.com/?pidx=${pidx}`,
    });
  });

  test.each(khaltiCases)("the lookup's %s shows as its own state", async (status, expected) => {
    const { t, gateway, sita, bookingId } = await setup();
    const { attemptId, pidx } = await startKhalti(t, sita.as, bookingId);
    gateway.khalti.get(pidx)!.status = status;
    await sita.as.mutation(api.wallets.khaltiReturned, { pidx });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject(expected);
    expect(recorded).toHaveLength(status === "Completed" ? 1 : 0);
  });

  test("Completed for another amount, a replayed return, a foreign pidx: no wrong payment", async () => {
    const { t, gateway, sita, gita, bookingId, gitaBooking } = await setup();
    const { attemptId, pidx } = await startKhalti(t, sita.as, bookingId);
    gateway.khalti.set(pidx, { status: "Completed", total_amount: 1000 });
    await sita.as.mutation(api.wallets.khaltiReturned, { pidx });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "failed",
      problem: "amount_mismatch",
    });
    // Gita's own payment, completed: Sita cannot report it, Gita's replays record it once
    const gitas = await startKhalti(t, gita.as, gitaBooking);
    gateway.khalti.get(gitas.pidx)!.status = "Completed";
    expect(
      await errorCode(sita.as.mutation(api.wallets.khaltiReturned, { pidx: gitas.pidx })),
    ).toBe("NOT_FOUND");
    for (let i = 0; i < 3; i++) {
      await gita.as.mutation(api.wallets.khaltiReturned, { pidx: gitas.pidx });
      await runDue(t);
    }
    await runRechecks(t);
    expect(recorded).toEqual([
      expect.objectContaining({ bookingId: gitaBooking, amountPaisa: 90_000 }),
    ]);
  });

  test("a refused initiate fails the attempt with its reason", async () => {
    const { t, sita, bookingId } = await setup();
    vi.stubEnv("KHALTI_SECRET_KEY", "wrong");
    const { attemptId } = await sita.as.mutation(api.wallets.start, {
      bookingId,
      method: "khalti",
    });
    await runDue(t);
    expect(await stateOf(sita.as, attemptId)).toMatchObject({
      state: "failed",
      problem: "refused",
    });
  });
});

describe("who may pay", () => {
  test("only the booking's customer; others are refused and see nothing", async () => {
    const { t, sita, gita, ram, admin, bookingId } = await setup();
    const { attemptId, form } = await startEsewa(sita.as, bookingId);
    const uuid = form.fields.transaction_uuid!;
    expect(await errorCode(t.mutation(api.wallets.start, { bookingId, method: "esewa" }))).toBe(
      "UNAUTHENTICATED",
    );
    for (const as of [ram.as, admin.as])
      expect(await errorCode(as.mutation(api.wallets.start, { bookingId, method: "esewa" }))).toBe(
        "FORBIDDEN",
      );
    expect(
      await errorCode(gita.as.mutation(api.wallets.start, { bookingId, method: "khalti" })),
    ).toBe("NOT_FOUND");
    expect(await gita.as.query(api.wallets.attempt, { attemptId })).toBeNull();
    expect(await gita.as.query(api.wallets.latest, { bookingId })).toBeNull();
    expect(await sita.as.query(api.wallets.latest, { bookingId })).toMatchObject({
      _id: attemptId,
    });
    expect(
      await errorCode(gita.as.mutation(api.wallets.esewaReturned, { transactionUuid: uuid })),
    ).toBe("NOT_FOUND");
    expect(
      await errorCode(
        sita.as.mutation(api.wallets.esewaReturned, { transactionUuid: "x".repeat(65) }),
      ),
    ).toBe("INVALID_INPUT");
    expect(await errorCode(sita.as.mutation(api.wallets.khaltiReturned, { pidx: uuid }))).toBe(
      "NOT_FOUND",
    );
  });

  test("a booking whose job is not under way, or cancelled, cannot be paid", async () => {
    const { t, sita, ram } = await setup();
    for (const status of ["requested", "accepted", "en_route", "cancelled", "expired"] as const) {
      const bookingId = await t.run((ctx) =>
        ctx.db.insert("bookings", bookingRow(sita.userId, ram, status)),
      );
      expect(
        await errorCode(sita.as.mutation(api.wallets.start, { bookingId, method: "esewa" })),
      ).toBe("NOT_PAYABLE");
    }
  });

  test("an unconfigured gateway is unavailable", async () => {
    const { sita, bookingId } = await setup();
    vi.stubEnv("ESEWA_SECRET_KEY", "");
    expect(
      await errorCode(sita.as.mutation(api.wallets.start, { bookingId, method: "esewa" })),
    ).toBe("PAYMENTS_UNAVAILABLE");
    vi.stubEnv("KHALTI_BASE_URL", "http://10.0.0.5");
    expect(
      await errorCode(sita.as.mutation(api.wallets.start, { bookingId, method: "khalti" })),
    ).toBe("PAYMENTS_UNAVAILABLE");
  });
});
