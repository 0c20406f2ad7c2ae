/**
 * Shared convex-test fixtures for the drills: a catalog, customer A and professional P with an active
 * booking between them, customer B and professional Q with a finished one, and an admin — each signed
 * in with a real auth session (the HTTP API requires one) that has a refresh token.
 *
 * Private fields hold canaries (lib/canaries.ts): homes, phones and emails, P's and Q's citizenship
 * documents (storage ids and content hashes, which their URLs carry), exact live positions, booking
 * addresses and notes, session and refresh-token ids. Every table holds at least one document, so
 * there is an id of every table to attack with.
 */
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { BookingStatus } from "../convex/validators";
import { ensureMarker } from "../convex/model/mapMarkers";
import {
  PNG_BYTES,
  bookingRow,
  customerSignUp,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  professionalSignUp,
  signUpDraft,
  storeUpload,
  useAuthEnv,
  withSession,
  type Caller,
  type TestConvex,
} from "../convex/test.setup";
import type { DrillRole } from "./access-table";
import { canaryPhone, canaryText, type Canary, type Viewer } from "./lib/canaries";
import { SCHEMA_TABLES, snapshot } from "./lib/db-snapshot";
import { sampleDocument } from "./lib/sample-docs";

export const PASSWORD = "correct horse";

export type Accessor = Caller | TestConvex;
type SignedInRole = Exclude<DrillRole, "visitor">;
type Db = {
  insert(table: string, doc: Record<string, unknown>): Promise<string>;
  delete(table: string, id: string): Promise<void>;
};

/** Exact positions with digits nothing else has; the public map rounds them away. */
const POSITIONS = {
  professional: { lat: 27.7031337, lng: 85.3131337 },
  otherProfessional: { lat: 27.7042424, lng: 85.3142424 },
} as const;

export async function buildFixtures() {
  await useAuthEnv();
  process.env.JWKS ??= JSON.stringify({ keys: [] }); // served by GET /.well-known/jwks.json
  // wallets that never answer (.invalid never resolves): starting a payment needs them configured
  process.env.ESEWA_BASE_URL ??= "https://esewa.drill.invalid";
  process.env.ESEWA_PRODUCT_CODE ??= "EPAYTEST";
  process.env.ESEWA_SECRET_KEY ??= "8gBm/:&EnhH.1/q";
  process.env.KHALTI_BASE_URL ??= "https://khalti.drill.invalid";
  process.env.KHALTI_SECRET_KEY ??= "drill-khalti-key";
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

  const userIds: Record<SignedInRole, Id<"users">> = {
    customer: a.userId,
    otherCustomer: b.userId,
    professional: p.userId,
    otherProfessional: q.userId,
    admin: admin.userId,
  };
  const roleOfUser = new Map<string, DrillRole>(
    Object.entries(userIds).map(([role, id]) => [id, role as DrillRole]),
  );

  /** Who each accessor is, for ownership and canary checks. */
  const viewers = new Map<Accessor, Viewer & { role: DrillRole }>([
    [t, { role: "visitor", admin: false }],
  ]);
  const signedIn = async (role: SignedInRole, userId: Id<"users">) => {
    const { as, sessionId } = await withSession(t, userId);
    viewers.set(as, { role, userId, admin: role === "admin" });
    return { as, sessionId };
  };
  const callers = { visitor: t } as Record<DrillRole, Accessor>;
  const sessions = {} as Record<SignedInRole, Id<"authSessions">>;
  /** "<refresh token id>|<session id>", as auth hands them out, for each role's session. */
  const refreshTokens = {} as Record<SignedInRole, string>;
  for (const [role, userId] of Object.entries(userIds) as [SignedInRole, Id<"users">][]) {
    const { as, sessionId } = await signedIn(role, userId);
    callers[role] = as;
    sessions[role] = sessionId;
    const tokenId = await t.run((ctx) =>
      ctx.db.insert("authRefreshTokens", {
        sessionId,
        expirationTime: Date.now() + 30 * 24 * 3_600_000,
      }),
    );
    refreshTokens[role] = `${tokenId}|${sessionId}`;
  }
  const viewerOf = (as: Accessor) => viewers.get(as) ?? { role: "visitor" as const, admin: false };

  /**
   * Undoes a suspension of fixture users (adminAccounts:suspend with their ids): lifts it, and signs
   * in again each role whose session it ended, so later calls act as the same users.
   */
  const reinstate = async () => {
    for (const [role, userId] of Object.entries(userIds) as [SignedInRole, Id<"users">][]) {
      const [user, session] = await t.run(async (ctx) => [
        await ctx.db.get("users", userId),
        await ctx.db.get("authSessions", sessions[role]),
      ]);
      if (user?.suspended !== undefined)
        await t.run((ctx) => ctx.db.patch("users", userId, { suspended: undefined }));
      if (session === null) {
        const { as, sessionId } = await signedIn(role, userId);
        callers[role] = as;
        sessions[role] = sessionId;
      }
    }
  };

  /**
   * A fresh booking between A and P in the given status (so state-changing calls never collide),
   * each three hours before the last: accepting one never clashes with another (rules/schedule.ts).
   */
  let slots = 0;
  const bookingIn = async (
    status: BookingStatus,
    fields: { address?: string; note?: string } = {},
  ) =>
    await t.run(async (ctx) => {
      const bookingId = await ctx.db.insert(
        "bookings",
        bookingRow(a.userId, p, status, {
          services: [{ id: service._id, name: service.name, category: service.category, price }],
          address: fields.address ?? "Ward 4, Baneshwor",
          ...(fields.note !== undefined ? { note: fields.note } : {}),
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

  // --- canaries in private fields ---
  const canaries: Canary[] = [];
  const plant = (value: string, label: string, users: string[], admins = true) => {
    canaries.push({ value, label, users, admins });
    return value;
  };
  const home = (role: SignedInRole, userId: Id<"users">, alsoSeenBy: string[]) => ({
    address: plant(canaryText(`${role}-home`), `${role}'s home address`, [userId, ...alsoSeenBy]),
    zipCode: plant(canaryText(`${role}-zip`), `${role}'s zip code`, [userId, ...alsoSeenBy]),
    phone: plant(canaryPhone(), `${role}'s phone`, [userId, ...alsoSeenBy]),
    email: plant(`${canaryText(`${role}-mail`)}@example.np`, `${role}'s email`, [userId]),
  });
  // A's active booking with P lets each see the other's phone, and A P's home (where P works from)
  const homes = {
    customer: home("customer", a.userId, []),
    otherCustomer: home("otherCustomer", b.userId, []),
    professional: home("professional", p.userId, [a.userId]),
    otherProfessional: home("otherProfessional", q.userId, []),
  };
  canaries.find((c) => c.value === homes.customer.phone)!.users.push(p.userId);
  const documentCanaries = async (role: SignedInRole, who: typeof p) => {
    const files: Record<string, Id<"_storage">> = {};
    for (const kind of ["citizenshipFront", "citizenshipBack", "trainingCertificate"]) {
      const bytes = new Uint8Array([...PNG_BYTES, ...new TextEncoder().encode(canaryText(kind))]);
      files[kind] = await t.run(async (ctx) => {
        const storageId = await ctx.storage.store(new Blob([bytes], { type: "image/png" }));
        await ctx.db.insert("uploads", { storageId, checked: true, userId: who.userId });
        const meta = (await ctx.db.system.get("_storage", storageId))!;
        plant(storageId, `${role}'s ${kind} (storage id)`, [who.userId]);
        plant(meta.sha256, `${role}'s ${kind} (content hash in its URL)`, [who.userId]);
        return storageId;
      });
    }
    return files as Record<
      "citizenshipFront" | "citizenshipBack" | "trainingCertificate",
      Id<"_storage">
    >;
  };
  for (const [role, who] of [
    ["professional", p],
    ["otherProfessional", q],
  ] as const) {
    const documents = await documentCanaries(role, who);
    const { address, zipCode, phone, email } = homes[role];
    await t.run(async (ctx) => {
      const pro = (await ctx.db.get("professionals", who.professionalId))!;
      for (const old of Object.values(pro.documents)) await ctx.storage.delete(old);
      await ctx.db.patch("professionals", who.professionalId, {
        documents,
        locations: [{ city: "kathmandu", state: "Bagmati", address, zipCode }],
      });
      await ctx.db.patch("users", who.userId, { address, zipCode, phone, email });
    });
    const seenBy = role === "professional" ? [who.userId, a.userId] : [who.userId];
    plant(String(POSITIONS[role].lat), `${role}'s exact latitude`, seenBy);
    plant(String(POSITIONS[role].lng), `${role}'s exact longitude`, seenBy);
  }
  for (const [role, userId] of [
    ["customer", a.userId],
    ["otherCustomer", b.userId],
  ] as const) {
    const { address, zipCode, phone, email } = homes[role];
    await t.run((ctx) => ctx.db.patch("users", userId, { address, zipCode, phone, email }));
  }
  const booking = await bookingIn("accepted", {
    address: plant(canaryText("ap-address"), "A's booking address", [a.userId, p.userId]),
    note: plant(canaryText("ap-note"), "A's booking note", [a.userId, p.userId]),
  });
  const finishedBooking = await t.run(async (ctx) => {
    const bookingId = await ctx.db.insert(
      "bookings",
      bookingRow(b.userId, q, "completed", {
        services: [{ id: service._id, name: service.name, category: service.category, price }],
        address: plant(canaryText("bq-address"), "B's booking address", [b.userId, q.userId]),
        note: plant(canaryText("bq-note"), "B's booking note", [b.userId, q.userId]),
        scheduledFor: Date.now() - 3_600_000,
        price,
      }),
    );
    await ctx.db.insert("bookingEvents", {
      bookingId,
      professionalId: q.professionalId,
      actorId: q.userId,
      from: "in_progress",
      to: "completed",
    });
    await ctx.db.insert("reviews", {
      bookingId,
      professionalId: q.professionalId,
      customerId: b.userId,
      rating: 4,
      comment: "Neat work",
    });
    // its expiry job, long after the test: an id of _scheduled_functions
    await ctx.scheduler.runAfter(24 * 3_600_000, internal.bookings.expire, { bookingId });
    return bookingId;
  });
  for (const role of Object.keys(sessions) as SignedInRole[]) {
    const [tokenId, sessionId] = refreshTokens[role].split("|");
    plant(sessionId, `${role}'s session id`, [userIds[role]], false);
    plant(tokenId, `${role}'s refresh token id`, [userIds[role]], false);
  }
  const notification = await t.run((ctx) =>
    ctx.db.insert("notifications", {
      userId: a.userId,
      kind: "test",
      title: "Hello",
      body: "World",
    }),
  );
  await t.run((ctx) =>
    ctx.db.insert("notifications", { userId: q.userId, kind: "test", title: "Hi", body: "Q" }),
  );
  // P's phone gets booking alerts: its push endpoint and keys are P's alone
  await t.run((ctx) =>
    ctx.db.insert("pushSubscriptions", {
      userId: p.userId,
      endpoint: plant(
        `https://push.example.np/${canaryText("endpoint")}`,
        "professional's push endpoint",
        [p.userId],
        false,
      ),
      p256dh: plant(canaryText("p256dh"), "professional's push key", [p.userId], false),
      auth: plant(canaryText("auth"), "professional's push secret", [p.userId], false),
      userAgent: "Drill phone",
      createdAt: Date.now(),
    }),
  );
  // pending uploads, one of B's and one of a visitor's sign-up draft: only their uploader may see them
  const pendingUpload = async (owner: { userId: Id<"users"> } | { draft: string }, who: string) => {
    const bytes = new Uint8Array([...PNG_BYTES, ...new TextEncoder().encode(canaryText("upload"))]);
    const storageId = await storeUpload(t, owner, bytes);
    const users = "userId" in owner ? [owner.userId] : [];
    const meta = await t.run((ctx) => ctx.db.system.get("_storage", storageId));
    plant(storageId, `${who}'s pending upload (storage id)`, users, false);
    plant(meta!.sha256, `${who}'s pending upload (content hash in its URL)`, users, false);
    return storageId;
  };
  const pendingUploads = {
    otherCustomer: await pendingUpload({ userId: b.userId }, "otherCustomer"),
    visitor: await pendingUpload({ draft: await signUpDraft(t) }, "a visitor"),
  };

  /** Positions written a minute ago: live on the map, and the next update is not rate limited. */
  const resetLocations = () =>
    t.run(async (ctx) => {
      for (const [role, pro] of [
        ["professional", p.professionalId],
        ["otherProfessional", q.professionalId],
      ] as const) {
        const row = await ctx.db
          .query("liveLocations")
          .withIndex("by_professionalId", (x) => x.eq("professionalId", pro))
          .unique();
        const updatedAt = Date.now() - 60_000;
        const { name, listed } = await ensureMarker(ctx, (await ctx.db.get("professionals", pro))!);
        if (row === null) {
          await ctx.db.insert("liveLocations", {
            professionalId: pro,
            city: "kathmandu",
            specialty: "electrician",
            ...POSITIONS[role],
            updatedAt,
            name,
            listed,
          });
        } else await ctx.db.patch("liveLocations", row._id, { updatedAt, name, listed });
      }
    });
  await resetLocations();

  /**
   * A brand-new signed-in user of the same kind as `role` (for calls that end the account or session);
   * an admin has two-factor on unless `twoFactor: false` (for its setup functions).
   */
  const freshCaller = async (role: DrillRole, { twoFactor = true } = {}): Promise<Accessor> => {
    if (role === "visitor") return t;
    const name = `Fresh ${Math.random().toString(36).slice(2, 8)}`;
    const user =
      role === "admin"
        ? await insertAdmin(t, name.toLowerCase().replace(" ", "-"), { twoFactor })
        : role === "customer" || role === "otherCustomer"
          ? await insertCustomer(t, name)
          : await insertProfessional(t, { name });
    return (await signedIn(role, user.userId)).as;
  };

  /** A new session for the role's own user (sign-out ends it). */
  const freshSession = async (role: DrillRole) =>
    role === "visitor" ? t : (await signedIn(role, userIds[role])).as;

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
  // a failed password leaves a row in authRateLimits (the lockout counter of that account)
  await t
    .action(api.auth.signIn, {
      provider: "professional",
      params: { flow: "signIn", email: professionalEmail, password: "wrong guess" },
    })
    .catch(() => undefined);
  const adminAccount = await t.action(internal.admin.createAdmin, {
    username: "drillboss",
    password: PASSWORD + " admin",
  });

  // A's proposal to move the booking with P. Left to fillEmptyTables, the generated one named A's
  // booking with B as its customer, which reschedules:propose never makes (it takes the booking's):
  // A withdrawing it (allowed: the app goes by the booking) read as a change to B's document.
  await t.run(async (ctx) => {
    const { scheduledFor } = (await ctx.db.get("bookings", booking))!;
    await ctx.db.insert("reschedules", {
      bookingId: booking,
      customerId: a.userId,
      professionalId: p.professionalId,
      from: scheduledFor,
      to: scheduledFor + 24 * 3_600_000,
      status: "proposed",
    });
  });
  await fillEmptyTables(t, [userIds.otherCustomer, userIds.otherProfessional]);
  const missingIds = await missingIdsOfEveryTable(t);

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
    roleOfUser,
    callers,
    viewerOf,
    sessions,
    refreshTokens,
    service,
    booking,
    finishedBooking,
    notification,
    pendingUploads,
    canaries,
    missingIds,
    bookingIn,
    resetLocations,
    freshCaller,
    freshSession,
    reinstate,
    sessionFor: async (role: SignedInRole, userId: Id<"users">) =>
      (await signedIn(role, userId)).as,
    storeImage,
    accounts: { customerEmail, professionalEmail, admin: adminAccount },
  };
}
export type Fixtures = Awaited<ReturnType<typeof buildFixtures>>;

/** A generated document in every table that has none yet; user ids taken in turn from `owners`. */
async function fillEmptyTables(t: TestConvex, owners: string[]) {
  const rows = await snapshot(t);
  // a generated document may name one generated before it (a receipt its payment)
  const added = new Map<string, string>();
  const firstOf = (table: string, turn: number) => {
    if (table === "users") return owners[turn % owners.length];
    for (const row of rows.values()) if (row.table === table) return row.doc._id;
    return added.get(table);
  };
  let turn = 0;
  for (const table of SCHEMA_TABLES) {
    if ([...rows.values()].some((r) => r.table === table)) continue;
    const doc = sampleDocument(table, (ref) => firstOf(ref, turn));
    if (doc === undefined) throw new Error(`drill fixtures: cannot build a document of ${table}`);
    added.set(table, await t.run((ctx) => (ctx.db as unknown as Db).insert(table, doc)));
    turn++;
  }
}

/** Well-formed ids of documents deleted again: what a missing resource looks like, per table. */
async function missingIdsOfEveryTable(t: TestConvex): Promise<Record<string, string>> {
  const rows = await snapshot(t);
  const firstOf = (table: string) => {
    for (const row of rows.values()) if (row.table === table) return row.doc._id;
    return undefined;
  };
  const missing: Record<string, string> = {};
  for (const table of SCHEMA_TABLES) {
    const doc = sampleDocument(table, firstOf)!;
    missing[table] = await t.run(async (ctx) => {
      const db = ctx.db as unknown as Db;
      const id = await db.insert(table, doc);
      await db.delete(table, id);
      return id;
    });
  }
  missing._storage = await t.run(async (ctx) => {
    const id = await ctx.storage.store(new Blob([PNG_BYTES as BlobPart]));
    await ctx.storage.delete(id);
    return id;
  });
  return missing;
}
