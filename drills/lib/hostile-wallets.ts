/**
 * Hostile wallet returns and cash answers against the started backend and its eSewa and Khalti
 * stand-ins (served on the site port), with the access drill's cast (cast-backend.ts). B's job W with
 * Q (started with B's start code, work done) and a second job C with Q (started); then B, A (another customer), P
 * (another professional) and Q try to get W or C booked as paid, or paid twice, without the gateway
 * saying so. The ledger (every `ledgerEntries` and `payments` row, read from the data directory)
 * changes only at W's real Khalti payment and at C's cash the customer confirmed.
 */
import { makeFunctionReference } from "convex/server";
import type { ConvexHttpClient } from "convex/browser";
import {
  esewaResponseAmount,
  esewaSignature,
  ESEWA_TEST_WALLETS,
  ESEWA_UAT,
} from "../../local-backend/stand-ins/esewa.ts";
import type { CastBackend } from "./cast-backend.ts";
import { refusal } from "./cast-backend.ts";

const query = <T>(name: string) => makeFunctionReference<"query", Record<string, unknown>, T>(name);
const mutation = <T>(name: string) =>
  makeFunctionReference<"mutation", Record<string, unknown>, T>(name);

type Attempt = { state: string; problem: string | null; paymentUrl: string | null } | null;
const RESPONSE_FIELDS =
  "transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names";

/** What the ledger holds: rows and the sum of their positive amounts, and payments by booking. */
type Ledger = { rows: number; paisa: number; payments: Record<string, number> };

export type WalletReport = { lines: string[]; failures: string[] };

export async function runHostileWallets({ backend, cast }: CastBackend): Promise<WalletReport> {
  const { callers, arriving: w, serviceId, professionals, reader } = cast;
  const a = callers.customer;
  const b = callers.otherCustomer;
  const p = callers.professional;
  const q = callers.otherProfessional;
  const lines: string[] = [];
  const failures: string[] = [];
  const site = backend.siteUrl;

  const ledger = (): Ledger => {
    const out: Ledger = { rows: 0, paisa: 0, payments: {} };
    for (const { table, doc } of reader.snapshot().values()) {
      if (table === "ledgerEntries") {
        out.rows++;
        out.paisa += Math.max(0, doc.amountPaisa as number);
      } else if (table === "payments") {
        const booking = doc.bookingId as string;
        out.payments[booking] = (out.payments[booking] ?? 0) + 1;
      }
    }
    return out;
  };
  const same = (what: string, before: Ledger) => {
    const now = ledger();
    if (JSON.stringify(now) !== JSON.stringify(before))
      failures.push(
        `${what} changed the ledger: ${JSON.stringify(before)} → ${JSON.stringify(now)}`,
      );
  };
  /** A hostile call: refused with `expected` (any refusal when undefined) and the ledger unchanged. */
  const refused = async (what: string, call: Promise<unknown>, expected?: string) => {
    const before = ledger();
    const answer = await refusal(call);
    lines.push(`${what}: ${answer}`);
    if (answer === "accepted" || (expected !== undefined && answer !== expected))
      failures.push(`${what}: ${answer}${expected ? `, not ${expected}` : ""}`);
    same(what, before);
  };
  const attempt = (as: ConvexHttpClient, attemptId: string) =>
    as.query(query<Attempt>("wallets:attempt"), { attemptId });
  /** Until the attempt is out of "checking" (the gateway was asked): its state. */
  const settled = async (attemptId: string, ready = (x: Attempt) => x?.state !== "checking") => {
    for (let i = 0; i < 400; i++) {
      const seen = await attempt(b, attemptId);
      if (ready(seen)) return seen;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`attempt ${attemptId} never settled`);
  };

  // W: Q starts B's job at the door; C: a second job of B's with Q, started the same way
  const startWith = async (bookingId: string) => {
    const view = (await b.query(query<{ start: { code: string } }>("bookings:get"), {
      bookingId,
    }))!;
    await q.mutation(mutation("bookings:start"), { bookingId, code: view.start.code });
  };
  await startWith(w);
  // work done: W's time is free for C (a bill is payable once the job is under way or done)
  await q.mutation(mutation("bookings:complete"), { bookingId: w });
  const c = await b.mutation(mutation<string>("bookings:create"), {
    professionalId: professionals.otherProfessional,
    serviceIds: [serviceId],
    address: "Ward 3, Jawalakhel, Lalitpur",
    note: "The wallet drill's second job.",
    city: "kathmandu",
    scheduledFor: Date.now() + 10 * 60_000,
  });
  for (const step of ["accept", "startTrip", "arrive"])
    await q.mutation(mutation(`bookings:${step}`), { bookingId: c });
  await startWith(c);
  const bill = async (bookingId: string) =>
    (await b.query(query<{ totalPaisa: number }>("bills:get"), { bookingId }))!.totalPaisa;
  const wPaisa = await bill(w);
  const start = ledger();

  // eSewa on W: forged, re-signed and cheaper answers, another customer's transaction
  const esewa = await b.mutation(
    mutation<{ attemptId: string; esewa: { url: string; fields: Record<string, string> } }>(
      "wallets:start",
    ),
    { bookingId: w, method: "esewa" },
  );
  const uuid = esewa.esewa.fields.transaction_uuid!;
  const answer = (totalPaisa: number, key: string) => {
    const data: Record<string, string> = {
      transaction_code: "000AB12",
      status: "COMPLETE",
      total_amount: esewaResponseAmount(totalPaisa),
      transaction_uuid: uuid,
      product_code: ESEWA_UAT.productCode,
      signed_field_names: RESPONSE_FIELDS,
    };
    data.signature = esewaSignature(data, RESPONSE_FIELDS, key);
    return Buffer.from(JSON.stringify(data)).toString("base64");
  };
  const esewaReturned = mutation<string>("wallets:esewaReturned");
  const unverified = async (what: string, data: string) => {
    const before = ledger();
    await b.mutation(esewaReturned, { transactionUuid: uuid, data });
    const seen = await attempt(b, esewa.attemptId);
    lines.push(`${what}: ${seen?.state}/${seen?.problem}`);
    if (seen?.state === "paid" || seen?.problem !== "unverified")
      failures.push(`${what}: ${seen?.state}/${seen?.problem}, not unverified`);
    same(what, before);
  };
  await unverified("eSewa answer with a forged signature", answer(wPaisa, "not the merchant key"));
  await unverified("eSewa answer with the amount changed", answer(100, ESEWA_UAT.secretKey));
  await refused(
    "A reports B's eSewa transaction",
    a.mutation(esewaReturned, { transactionUuid: uuid, data: answer(wPaisa, ESEWA_UAT.secretKey) }),
    "NOT_FOUND",
  );
  // B pays Rs 10 at eSewa under W's transaction id (a form of their own), and brings that answer
  const cheap: Record<string, string> = {
    ...esewa.esewa.fields,
    amount: "10",
    total_amount: "10",
    tax_amount: "0",
    product_service_charge: "0",
    product_delivery_charge: "0",
  };
  cheap.signature = esewaSignature(cheap, cheap.signed_field_names!, ESEWA_UAT.secretKey);
  const opened = await fetch(esewa.esewa.url, {
    method: "POST",
    body: new URLSearchParams(cheap),
    redirect: "manual",
  });
  const hosted = new URL(opened.headers.get("location") ?? "/none", site);
  const paid = await fetch(hosted, {
    method: "POST",
    body: new URLSearchParams({
      esewa_id: ESEWA_TEST_WALLETS.ids[0]!,
      password: ESEWA_TEST_WALLETS.password,
      token: ESEWA_TEST_WALLETS.token,
    }),
    redirect: "manual",
  });
  const cheapData = new URL(paid.headers.get("location") ?? "/none", site).searchParams.get("data");
  if (cheapData === null)
    failures.push(`the stand-in did not take Rs 10: ${opened.status} ${paid.status}`);
  else await unverified("eSewa's own answer for Rs 10 paid under W's id", cheapData);
  // a well-signed answer of the right amount that eSewa never paid: the status check decides
  await b.mutation(esewaReturned, {
    transactionUuid: uuid,
    data: answer(wPaisa, ESEWA_UAT.secretKey),
  });
  const checked = await settled(esewa.attemptId);
  lines.push(`eSewa answer re-signed at the full amount, never paid: ${checked?.state}`);
  if (checked?.state === "paid") failures.push("a re-signed eSewa answer paid W");
  same("the re-signed eSewa answer", start);

  // Khalti on C: another booking's pidx, an unpaid one, another customer's
  const khaltiStart = async (bookingId: string) => {
    const { attemptId } = await b.mutation(mutation<{ attemptId: string }>("wallets:start"), {
      bookingId,
      method: "khalti",
    });
    const seen = await settled(attemptId, (x) => x?.paymentUrl != null);
    return { attemptId, pidx: new URL(seen!.paymentUrl!).searchParams.get("pidx")! };
  };
  const khaltiReturned = mutation<string>("wallets:khaltiReturned");
  const onC = await khaltiStart(c);
  await b.mutation(khaltiReturned, { pidx: onC.pidx });
  const cChecked = await settled(onC.attemptId);
  lines.push(`Khalti return for C, never paid: ${cChecked?.state}`);
  if (cChecked?.state === "paid") failures.push("an unpaid Khalti return paid C");
  same("the unpaid Khalti return", start);
  await refused(
    "A reports B's Khalti pidx",
    a.mutation(khaltiReturned, { pidx: onC.pidx }),
    "NOT_FOUND",
  );
  await refused(
    "a made-up pidx",
    b.mutation(khaltiReturned, { pidx: "x".repeat(22) }),
    "NOT_FOUND",
  );

  // W paid for real with Khalti (the stand-in's test control, as a tester's wallet)
  const onW = await khaltiStart(w);
  const control = await fetch(`${site}/khalti/control/status`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pidx: onW.pidx, status: "Completed" }),
  });
  if (!control.ok) throw new Error(`the Khalti stand-in refused: ${control.status}`);
  await b.mutation(khaltiReturned, { pidx: onW.pidx });
  await settled(onW.attemptId, (x) => x?.state === "paid");
  const afterW = ledger();
  if (afterW.payments[w] !== 1 || afterW.paisa <= start.paisa)
    failures.push(
      `W's payment: ${afterW.payments[w]} payments, ledger ${start.paisa} → ${afterW.paisa}`,
    );
  // replays: the same return again (after the re-check gap too), W's pidx against C, eSewa's answer
  for (let i = 0; i < 3; i++) await b.mutation(khaltiReturned, { pidx: onW.pidx });
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  await b.mutation(khaltiReturned, { pidx: onW.pidx });
  await b.mutation(esewaReturned, {
    transactionUuid: uuid,
    data: answer(wPaisa, ESEWA_UAT.secretKey),
  });
  await settled(esewa.attemptId);
  await settled(onW.attemptId, (x) => x?.state === "paid");
  same("replayed Khalti and eSewa returns of W", afterW);
  lines.push(`W paid once: ${afterW.payments[w]} payment; 5 replays changed nothing`);
  const cAfter = await attempt(b, onC.attemptId);
  if (cAfter?.state === "paid") failures.push("W's payment paid C");
  await refused(
    "B pays W again",
    b.mutation(mutation("wallets:start"), { bookingId: w, method: "khalti" }),
    "ALREADY_PAID",
  );
  await refused(
    "Q records cash on W, paid by Khalti",
    q.mutation(mutation("cash:markReceived"), { bookingId: w, amountPaisa: wPaisa }),
    "ALREADY_PAID",
  );

  // cash on C: only its professional records it, only its customer answers
  const cPaisa = await bill(c);
  const markReceived = mutation("cash:markReceived");
  await refused(
    "P records cash on Q's job",
    p.mutation(markReceived, { bookingId: c, amountPaisa: cPaisa }),
    "NOT_FOUND",
  );
  await refused(
    "B records cash as the professional",
    b.mutation(markReceived, { bookingId: c, amountPaisa: cPaisa }),
    "FORBIDDEN",
  );
  await refused(
    "Q records less cash",
    q.mutation(markReceived, { bookingId: c, amountPaisa: cPaisa - 100 }),
    "WRONG_AMOUNT",
  );
  await q.mutation(markReceived, { bookingId: c, amountPaisa: cPaisa });
  const recorded = ledger();
  const confirm = mutation("cash:confirm");
  const dispute = mutation("cash:dispute");
  await refused("A confirms B's cash", a.mutation(confirm, { bookingId: c }), "NOT_FOUND");
  await refused(
    "A disputes B's cash",
    a.mutation(dispute, { bookingId: c, text: "Not paid." }),
    "NOT_FOUND",
  );
  await refused(
    "Q confirms the cash Q recorded",
    q.mutation(confirm, { bookingId: c }),
    "FORBIDDEN",
  );
  await refused(
    "P disputes it",
    p.mutation(dispute, { bookingId: c, text: "Not paid." }),
    "FORBIDDEN",
  );
  await refused(
    "Q records the cash twice",
    q.mutation(markReceived, { bookingId: c, amountPaisa: cPaisa }),
    "ALREADY_PAID",
  );
  same("the hostile cash calls", recorded);
  await b.mutation(confirm, { bookingId: c });
  const confirmed = ledger();
  if (confirmed.payments[c] !== 1) failures.push(`C has ${confirmed.payments[c]} payments`);
  await b.mutation(confirm, { bookingId: c });
  same("B confirming again", confirmed);
  await refused(
    "B disputes after confirming",
    b.mutation(dispute, { bookingId: c, text: "Changed my mind." }),
    "ALREADY_DECIDED",
  );
  // C's open Khalti attempt paid at the gateway after its cash: the ledger books no second payment
  await fetch(`${site}/khalti/control/status`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pidx: onC.pidx, status: "Completed" }),
  });
  await b.mutation(khaltiReturned, { pidx: onC.pidx });
  const late = await settled(onC.attemptId);
  lines.push(`C's Khalti paid after its cash: attempt ${late?.state}/${late?.problem}`);
  if (late?.state !== "failed" || late.problem !== "already_paid")
    failures.push(
      `C's late Khalti payment: ${late?.state}/${late?.problem}, not failed/already_paid`,
    );
  const end = ledger();
  if (end.payments[c] !== 1)
    failures.push(`C has ${end.payments[c]} payments after a late Khalti payment`);
  lines.push(
    `ledger: ${start.rows} rows/${start.paisa} paisa at the start, ${afterW.rows}/${afterW.paisa} after W's payment, ` +
      `${confirmed.rows}/${confirmed.paisa} after C's cash, ${end.rows}/${end.paisa} at the end`,
  );
  return { lines, failures };
}
