/**
 * Shared convex-test fixtures for the drills: a catalog, customer A and professional P with a booking
 * between them, an unrelated customer B and professional Q, and an admin — each signed in with a real
 * auth session (the HTTP API requires one).
 */
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { BookingStatus } from "../convex/validators";
import {
  PNG_BYTES,
  bookingRow,
  customerSignUp,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  professionalSignUp,
  useAuthEnv,
  withSession,
  type Caller,
  type TestConvex,
} from "../convex/test.setup";
import type { DrillRole } from "./access-table";

export const PASSWORD = "correct horse";

export async function buildFixtures() {
  await useAuthEnv();
  process.env.JWKS ??= JSON.stringify({ keys: [] }); // served by GET /.well-known/jwks.json
  const t = newTest();
  await t.mutation(internal.seed.catalogAndSettings, {});
  const a = await insertCustomer(t, "Asha Customer");
  const b = await insertCustomer(t, "Bimal Other");
  const p = await insertProfessional(t, {
    name: "Prakash Pro",
    specialty: "electrician",
    city: "kathmandu",
  });
  const q = await insertProfessional(t, {
    name: "Quasi Other",
    specialty: "electrician",
    city: "kathmandu",
  });
  const admin = await insertAdmin(t, "drill-admin");
  const service = await t.run(async (ctx) => {
    const s = await ctx.db
      .query("services")
      .withIndex("by_category_and_name", (x) => x.eq("category", "electrical"))
      .first();
    return s!;
  });
  const price = service.availableCities.find((c) => c.name === "kathmandu")?.price ?? 500;

  const userIds: Record<Exclude<DrillRole, "visitor">, Id<"users">> = {
    customer: a.userId,
    otherCustomer: b.userId,
    professional: p.userId,
    otherProfessional: q.userId,
    admin: admin.userId,
  };
  const callers = { visitor: t } as Record<DrillRole, Caller | TestConvex>;
  for (const [role, userId] of Object.entries(userIds)) {
    callers[role as DrillRole] = (await withSession(t, userId)).as;
  }

  /**
   * A fresh booking between A and P in the given status (so state-changing calls never collide),
   * each three hours before the last: accepting one never clashes with another (rules/schedule.ts).
   */
  let slots = 0;
  const bookingIn = async (status: BookingStatus) =>
    await t.run(async (ctx) => {
      const bookingId = await ctx.db.insert(
        "bookings",
        bookingRow(a.userId, p, status, {
          services: [{ id: service._id, name: service.name, category: service.category, price }],
          address: "Ward 4, Baneshwor",
          scheduledFor: Date.now() + 3_600_000 - slots++ * 3 * 3_600_000,
          price,
        }),
      );
      await ctx.db.insert("bookingEvents", {
        bookingId,
        professionalId: p.professionalId,
        actorId: a.userId,
        to: "requested",
      });
      return bookingId;
    });
  const booking = await bookingIn("accepted");
  const notification = await t.run((ctx) =>
    ctx.db.insert("notifications", {
      userId: a.userId,
      kind: "test",
      title: "Hello",
      body: "World",
    }),
  );

  /** Positions written long ago, so the next update is not rate limited. */
  const resetLocations = () =>
    t.run(async (ctx) => {
      for (const pro of [p.professionalId, q.professionalId]) {
        const row = await ctx.db
          .query("liveLocations")
          .withIndex("by_professionalId", (x) => x.eq("professionalId", pro))
          .unique();
        if (row === null) {
          await ctx.db.insert("liveLocations", {
            professionalId: pro,
            city: "kathmandu",
            specialty: "electrician",
            lat: 27.7,
            lng: 85.3,
            updatedAt: 0,
          });
        } else await ctx.db.patch("liveLocations", row._id, { updatedAt: 0 });
      }
    });
  await resetLocations();

  /** A brand-new signed-in user of the same kind as `role` (for calls that end the account or session). */
  const freshCaller = async (role: DrillRole): Promise<Caller | TestConvex> => {
    if (role === "visitor") return t;
    const name = `Fresh ${Math.random().toString(36).slice(2, 8)}`;
    const user =
      role === "admin"
        ? await insertAdmin(t, name.toLowerCase().replace(" ", "-"))
        : role === "customer" || role === "otherCustomer"
          ? await insertCustomer(t, name)
          : await insertProfessional(t, { name });
    return (await withSession(t, user.userId)).as;
  };

  /** A new session for the role's own user (sign-out ends it). */
  const freshSession = async (role: DrillRole) =>
    role === "visitor" ? t : (await withSession(t, userIds[role])).as;

  // Password accounts for the sign-in function and the login routes.
  const customerEmail = "drill.customer@example.np";
  const professionalEmail = "drill.pro@example.np";
  await t.action(api.auth.signIn, {
    provider: "customer",
    params: await customerSignUp(t, customerEmail),
  });
  await t.action(api.auth.signIn, {
    provider: "professional",
    params: await professionalSignUp(t, professionalEmail),
  });
  const adminAccount = await t.action(internal.admin.createAdmin, {
    username: "drillboss",
    password: PASSWORD + " admin",
  });

  const storeImage = () =>
    t.run((ctx) => ctx.storage.store(new Blob([PNG_BYTES as BlobPart], { type: "image/png" })));

  return {
    t,
    a,
    b,
    p,
    q,
    admin,
    userIds,
    callers,
    service,
    booking,
    notification,
    bookingIn,
    resetLocations,
    freshCaller,
    freshSession,
    storeImage,
    accounts: { customerEmail, professionalEmail, admin: adminAccount },
  };
}
export type Fixtures = Awaited<ReturnType<typeof buildFixtures>>;
