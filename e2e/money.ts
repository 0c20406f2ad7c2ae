import { anyApi } from "convex/server";
import { requestKathmanduBooking, signedInClient, type Account } from "./people";

/**
 * A Kathmandu job already under way: `customer` books `professional` for the service a quarter of an
 * hour from now, and the professional accepts, sets off and arrives (as their app does). Returns the
 * booking and both signed-in clients.
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
  return { bookingId, asCustomer, asPro };
}
