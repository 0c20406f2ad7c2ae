import type { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { E2E } from "./env";
import {
  KATHMANDU_ELECTRICIAN,
  kathmanduJobUnderWay,
  requestKathmanduBooking,
  signedInClient,
  startWithCustomersCode,
  type Account,
} from "./people";

/**
 * A Kathmandu job already under way: `customer` books `professional` for the service a quarter of an
 * hour from now, and the professional accepts, sets off, arrives and starts with the customer's start
 * code (as their apps do). Returns the booking and both signed-in clients.
 */
export async function jobInProgress(
  customer: Account,
  professional: Account,
  service: { category: string; serviceName: string },
) {
  const { bookingId, customer: asCustomer } = await requestKathmanduBooking(
    customer,
    professional,
    service,
    0.25,
  );
  const asPro = await signedInClient("professional", professional);
  await asPro.mutation(anyApi.bookings.accept, { bookingId, confirmClash: true });
  await asPro.mutation(anyApi.bookings.startTrip, { bookingId });
  await asPro.mutation(anyApi.bookings.arrive, { bookingId });
  await startWithCustomersCode(asCustomer, asPro, bookingId);
  return { bookingId, asCustomer, asPro };
}

/** Until `read` gives a value: a bounded wait for work the backend schedules (Khalti's initiate). */
async function eventually<T>(read: () => Promise<T | null>): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the backend never got there");
}

/**
 * The customer pays `bookingId` with Khalti at the stand-in, paid there through its test control
 * (as a tester's wallet would): the booking's payment and its ledger entries exist once it returns.
 */
export async function payWithKhalti(customer: ConvexHttpClient, bookingId: string) {
  const { attemptId } = (await customer.mutation(anyApi.wallets.start, {
    bookingId,
    method: "khalti",
  })) as { attemptId: string };
  type View = { paymentUrl: string | null; state: string } | null;
  const view = () => customer.query(anyApi.wallets.attempt, { attemptId }) as Promise<View>;
  const paymentUrl = await eventually(async () => (await view())?.paymentUrl ?? null);
  const pidx = new URL(paymentUrl).searchParams.get("pidx")!;
  const paid = await fetch(`${E2E.siteUrl}/khalti/control/status`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pidx, status: "Completed" }),
  });
  if (!paid.ok) throw new Error(`the Khalti stand-in refused: ${paid.status}`);
  await customer.mutation(anyApi.wallets.khaltiReturned, { pidx });
  await eventually(async () => ((await view())?.state === "paid" ? true : null));
}

/**
 * A job of the demo electrician in Kathmandu for `customer`, paid with Khalti and marked done: its
 * commission and the professional's earning are in the ledger. Returns the bill in paisa.
 */
export async function paidKathmanduJob(customer: Account): Promise<{ totalPaisa: number }> {
  const bookingId = await kathmanduJobUnderWay(customer);
  const [asCustomer, asPro] = await Promise.all([
    signedInClient("customer", customer),
    signedInClient("professional", KATHMANDU_ELECTRICIAN),
  ]);
  const { totalPaisa } = (await asCustomer.query(anyApi.bills.get, { bookingId })) as {
    totalPaisa: number;
  };
  await payWithKhalti(asCustomer, bookingId);
  await asPro.mutation(anyApi.bookings.complete, { bookingId });
  return { totalPaisa };
}

/**
 * A job of `professional` for `customer` paid in cash and confirmed by the customer, then marked
 * done: the professional holds the cash and owes the platform its commission. Returns the bill.
 */
export async function cashPaidJob(
  customer: Account,
  professional: Account,
  service: { category: string; serviceName: string },
): Promise<{ totalPaisa: number }> {
  const { bookingId, asCustomer, asPro } = await jobInProgress(customer, professional, service);
  const { totalPaisa } = (await asCustomer.query(anyApi.bills.get, { bookingId })) as {
    totalPaisa: number;
  };
  await asPro.mutation(anyApi.cash.markReceived, { bookingId, amountPaisa: totalPaisa });
  await asCustomer.mutation(anyApi.cash.confirm, { bookingId });
  await asPro.mutation(anyApi.bookings.complete, { bookingId });
  return { totalPaisa };
}
