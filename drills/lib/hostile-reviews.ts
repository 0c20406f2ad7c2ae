/**
 * A professional rates themself: with a customer account of their own (here a demo customer the
 * attacker controls), they book themself, tap accept → on the way → arrived → start code → done within seconds,
 * confirm as the customer and leave five stars, `rounds` times. Counted: how much the professional's
 * public rating count grew. The admin's list of held reviews must show the ones that were written.
 */
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { DEMO_PASSWORD, signIn, type HostileBackend, type Tokens } from "./hostile-backend.ts";

export type SelfReviewReport = {
  rounds: number;
  written: number;
  refused: string[];
  counted: number;
  ratingBefore: { average: number; count: number };
  ratingAfter: { average: number; count: number };
  heldForAdmin: number;
  elapsedMs: number;
  failures: string[];
};

const codeOf = (error: unknown) =>
  (error as { data?: { code?: string } }).data?.code ?? (error as Error).message.slice(0, 120);

export async function runSelfReviews(
  backend: HostileBackend,
  options: {
    rounds: number;
    professional: string;
    puppet: string;
    /** Signs an admin in (a new session). */
    admin: () => Promise<Tokens>;
  },
): Promise<SelfReviewReport> {
  const as = async (provider: "customer" | "professional", account: string, pw: string) => {
    const client = new ConvexHttpClient(backend.url, { logger: false });
    client.setAuth((await signIn(backend.url, provider, account, pw)).token);
    return client;
  };
  const pro = await as("professional", options.professional, DEMO_PASSWORD);
  const puppet = await as("customer", options.puppet, DEMO_PASSWORD);
  const admin = new ConvexHttpClient(backend.url, { logger: false });
  admin.setAuth((await options.admin()).token);
  const me = (await pro.query(anyApi.professionals.me, {})) as {
    _id: string;
    specialty: string;
    city: string;
  };
  const ratingOf = async () =>
    (
      (await puppet.query(anyApi.professionals.get, { professionalId: me._id })) as {
        reviews: { average: number; count: number };
      }
    ).reviews;
  const service = (await puppet.query(anyApi.catalog.serviceDetails, {
    category: "Electrician",
    serviceName: "Light Fitting",
    location: "Nepalgunj",
  })) as { _id: string };
  const ratingBefore = await ratingOf();
  const failures: string[] = [];
  const refused: string[] = [];
  let written = 0;
  const started = Date.now();
  for (let i = 0; i < options.rounds; i++) {
    const bookingId = (await puppet.mutation(anyApi.bookings.create, {
      professionalId: me._id,
      serviceIds: [service._id],
      city: "nepalgunj",
      address: `Ward ${i + 1}, Dhamboji Chowk`,
      // soon: the job's steps open an hour before its time
      scheduledFor: Date.now() + 20 * 60_000,
    })) as string;
    await pro.mutation(anyApi.bookings.accept, { bookingId, confirmClash: true });
    for (const step of ["startTrip", "arrive"])
      await pro.mutation(anyApi.bookings[step], { bookingId });
    // the puppet customer reads out the start code (rules/startCode.ts)
    const arrived = (await puppet.query(anyApi.bookings.get, { bookingId })) as {
      start?: { code: string | null } | null;
    };
    if (arrived.start?.code)
      await pro.mutation(anyApi.bookings.start, { bookingId, code: arrived.start.code });
    await pro.mutation(anyApi.bookings.complete, { bookingId });
    try {
      await puppet.mutation(anyApi.bookings.confirmDone, { bookingId });
    } catch (error) {
      // a backend without the customer's confirmation
      if (!/Could not find public function/.test((error as Error).message))
        failures.push(`confirmDone: ${codeOf(error)}`);
    }
    try {
      await puppet.mutation(anyApi.reviews.create, { bookingId, rating: 5, comment: "Superb!" });
      written++;
    } catch (error) {
      refused.push(codeOf(error));
    }
  }
  const elapsedMs = Date.now() - started;
  const ratingAfter = await ratingOf();
  let heldForAdmin = 0;
  try {
    heldForAdmin = ((await admin.query(anyApi.adminReviews.held, {})) as unknown[]).length;
  } catch (error) {
    failures.push(`adminReviews:held: ${codeOf(error)}`);
  }
  const counted = ratingAfter.count - ratingBefore.count;
  if (counted > 0) failures.push(`${counted} self-reviews counted in the public rating`);
  if (heldForAdmin < written)
    failures.push(`${written} written, ${heldForAdmin} held for an admin`);
  return {
    rounds: options.rounds,
    written,
    refused,
    counted,
    ratingBefore,
    ratingAfter,
    heldForAdmin,
    elapsedMs,
    failures,
  };
}

export function summarizeSelfReviews(r: SelfReviewReport): string {
  const refusals = r.refused.length > 0 ? ` (${r.refused.length} refused: ${r.refused[0]})` : "";
  return (
    `${r.rounds} self-booked jobs tapped through to done and five-starred in ${r.elapsedMs} ms: ` +
    `${r.written} reviews written${refusals}, self-reviews counted ${r.counted} (rating ` +
    `${r.ratingBefore.average.toFixed(2)} × ${r.ratingBefore.count} → ` +
    `${r.ratingAfter.average.toFixed(2)} × ${r.ratingAfter.count}), ${r.heldForAdmin} held for an admin`
  );
}
