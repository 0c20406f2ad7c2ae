/**
 * The guard in front of @convex-dev/auth's store mutation (auth.ts, model/authGuard.ts): ids of the
 * wrong table, and ids that do not belong together, never reach the library.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "../_generated/api";
import type { Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { store } from "../auth";
import schema from "../schema";
import { bookingRow, newTest, PNG_BYTES, type TestConvex, useAuthEnv } from "../test.setup";

beforeAll(useAuthEnv);

async function signIn(
  t: TestConvex,
  provider?: string,
  params?: Record<string, unknown>,
  refreshToken?: string,
) {
  return await t.action(api.auth.signIn, { provider, params, refreshToken });
}

/** One document in every table of the schema, and in the system tables a client could name. */
async function oneOfEveryTable(ctx: MutationCtx) {
  const DAY = 24 * 3_600_000;
  const userId = await ctx.db.insert("users", { name: "Every Table", role: "customer" });
  const proUserId = await ctx.db.insert("users", { name: "Every Table Pro", role: "professional" });
  const sessionId = await ctx.db.insert("authSessions", {
    userId,
    expirationTime: Date.now() + DAY,
  });
  const accountId = await ctx.db.insert("authAccounts", {
    userId,
    provider: "customer",
    providerAccountId: "every@example.np",
  });
  const storageId = await ctx.storage.store(
    new Blob([PNG_BYTES as BlobPart], { type: "image/png" }),
  );
  const place = {
    city: "kathmandu" as const,
    state: "Bagmati",
    address: "Ward 1",
    zipCode: "44600",
  };
  const professionalId = await ctx.db.insert("professionals", {
    userId: proUserId,
    specialty: "electrician",
    city: "kathmandu",
    state: "Bagmati",
    locations: [place],
    documents: {
      citizenshipFront: storageId,
      citizenshipBack: storageId,
      trainingCertificate: storageId,
    },
    verification: { status: "verified" },
    rating: { sum: 0, count: 0 },
    available: true,
  });
  const serviceId = await ctx.db.insert("services", {
    category: "electrical",
    name: "Fan repair",
    description: "Fans",
    serviceWarranty: "30 days",
    availableCities: [{ name: "kathmandu", price: 500 }],
    totalBookings: 0,
  });
  const bookingId = await ctx.db.insert(
    "bookings",
    bookingRow(userId, { professionalId, userId: proUserId }, "completed", {
      services: [{ id: serviceId, name: "Fan repair", category: "electrical", price: 500 }],
      scheduledFor: Date.now() + DAY,
    }),
  );
  const paymentId = await ctx.db.insert("payments", {
    bookingId,
    customerId: userId,
    professionalId,
    method: "esewa",
    reference: "ref-1",
    amountPaisa: 50_000,
  });
  const requestId = await ctx.db.insert("dispatchRequests", {
    customerId: userId,
    specialty: "electrician",
    city: "kathmandu",
    services: [{ id: serviceId, name: "Fan repair", category: "electrical", price: 500 }],
    price: 500,
    visitChargeNrs: 0,
    address: "Ward 1",
    pin: { lat: 27.7, lng: 85.3 },
    status: "searching",
    deadline: Date.now() + DAY,
    updatedAt: Date.now(),
  });
  const ids: { [T in TableNames]: Id<T> } = {
    users: userId,
    authSessions: sessionId,
    authAccounts: accountId,
    authRefreshTokens: await ctx.db.insert("authRefreshTokens", {
      sessionId,
      expirationTime: Date.now() + DAY,
    }),
    authVerificationCodes: await ctx.db.insert("authVerificationCodes", {
      accountId,
      provider: "customer",
      code: "hash",
      expirationTime: Date.now() + DAY,
    }),
    authVerifiers: await ctx.db.insert("authVerifiers", { sessionId }),
    sessionDevices: await ctx.db.insert("sessionDevices", {
      sessionId,
      userId,
      userAgent: "Mozilla/5.0",
      lastSeenAt: Date.now(),
    }),
    twoFactor: await ctx.db.insert("twoFactor", {
      userId,
      secret: "sealed",
      setupStartedAt: Date.now(),
      recoveryCodes: [],
    }),
    accountCodes: await ctx.db.insert("accountCodes", {
      userId,
      purpose: "reset",
      codeHash: "hash",
      expiresAt: Date.now() + DAY,
      attemptsLeft: 5,
    }),
    adminSetupTokens: await ctx.db.insert("adminSetupTokens", {
      userId,
      tokenHash: "hash",
      expiresAt: Date.now() + DAY,
    }),
    authRateLimits: await ctx.db.insert("authRateLimits", {
      identifier: accountId,
      lastAttemptTime: Date.now(),
      attemptsLeft: 3,
    }),
    professionals: professionalId,
    liveLocations: await ctx.db.insert("liveLocations", {
      professionalId,
      city: "kathmandu",
      specialty: "electrician",
      lng: 85.3,
      lat: 27.7,
      updatedAt: Date.now(),
    }),
    mapMarkers: await ctx.db.insert("mapMarkers", {
      professionalId,
      city: "kathmandu",
      specialty: "electrician",
      name: "Ram Thapa",
      listed: true,
    }),
    serviceCategories: await ctx.db.insert("serviceCategories", {
      slug: "electrical",
      name: "Electrical",
      description: "Wiring",
      cities: ["kathmandu"],
      order: 1,
    }),
    services: serviceId,
    bookings: bookingId,
    dispatchSpots: await ctx.db.insert("dispatchSpots", {
      professionalId,
      specialty: "electrician",
      city: "kathmandu",
      lat: 27.7,
      lng: 85.3,
      cell: "5540:17060",
      live: true,
      eligible: true,
    }),
    dispatchRequests: requestId,
    dispatchOffers: await ctx.db.insert("dispatchOffers", {
      requestId,
      professionalId,
      professionalUserId: proUserId,
      distanceMetres: 500,
      status: "offered",
      expiresAt: Date.now() + DAY,
    }),
    bookingEvents: await ctx.db.insert("bookingEvents", {
      bookingId,
      professionalId,
      actorId: userId,
      to: "completed",
    }),
    startCodes: await ctx.db.insert("startCodes", { bookingId, code: "1234", wrongTries: 0 }),
    noShowStrikes: await ctx.db.insert("noShowStrikes", { professionalId, bookingId }),
    reschedules: await ctx.db.insert("reschedules", {
      bookingId,
      customerId: userId,
      professionalId,
      from: Date.now() + DAY,
      to: Date.now() + 2 * DAY,
      status: "proposed",
    }),
    billLines: await ctx.db.insert("billLines", {
      bookingId,
      kind: "service",
      label: "Fan repair",
      amountPaisa: 50_000,
      status: "approved",
    }),
    payments: paymentId,
    receipts: await ctx.db.insert("receipts", { bookingId, paymentId, number: 1 }),
    ledgerEntries: await ctx.db.insert("ledgerEntries", {
      txId: "payment:1",
      kind: "payment",
      account: "customer",
      amountPaisa: -50_000,
      bookingId,
    }),
    refunds: await ctx.db.insert("refunds", {
      bookingId,
      paymentId,
      customerId: userId,
      professionalId,
      method: "esewa",
      amountPaisa: 50_000,
      state: "due",
    }),
    payouts: await ctx.db.insert("payouts", {
      professionalId,
      amountPaisa: 10_000,
      method: "bank",
      reference: "TXN-1",
      adminId: userId,
    }),
    settlements: await ctx.db.insert("settlements", {
      professionalId,
      amountPaisa: 10_000,
      method: "cash",
      reference: "Receipt 1",
      adminId: userId,
    }),
    accountEvents: await ctx.db.insert("accountEvents", {
      userId,
      adminId: userId,
      action: "restored",
      reason: "Checked again",
    }),
    reports: await ctx.db.insert("reports", {
      reporterId: userId,
      bookingId,
      category: "other",
      text: "Something went wrong",
      status: "open",
    }),
    notifications: await ctx.db.insert("notifications", {
      userId,
      kind: "test",
      title: "Hello",
      body: "Hello",
      bookingId,
    }),
    reviews: await ctx.db.insert("reviews", {
      bookingId,
      professionalId,
      customerId: userId,
      rating: 5,
    }),
    reviewDecisions: await ctx.db.insert("reviewDecisions", {
      reviewId: await ctx.db.insert("reviews", {
        bookingId,
        professionalId,
        customerId: userId,
        rating: 4,
      }),
      bookingId,
      professionalId,
      customerId: userId,
      adminId: userId,
      decision: "removed",
      rating: 4,
    }),
    presence: await ctx.db.insert("presence", {
      userId,
      role: "customer",
      online: true,
      lastSeen: Date.now(),
    }),
    pushSubscriptions: await ctx.db.insert("pushSubscriptions", {
      userId,
      endpoint: "https://push.example/1",
      p256dh: "key",
      auth: "secret",
      userAgent: "test",
      createdAt: Date.now(),
    }),
    uploads: await ctx.db.insert("uploads", { storageId, checked: true, userId: proUserId }),
    uploadGrants: await ctx.db.insert("uploadGrants", {
      token: "grant",
      userId,
      expiresAt: Date.now() + DAY,
    }),
    settings: await ctx.db.insert("settings", { key: "bannerText", value: "Hello" }),
    contactMessages: await ctx.db.insert("contactMessages", {
      name: "Sita",
      email: "sita@example.np",
      message: "Hi",
    }),
    rateLimits: await ctx.db.insert("rateLimits", {
      key: "contact:everyVisitor:",
      windowStart: Date.now(),
      count: 1,
    }),
    signUpDrafts: await ctx.db.insert("signUpDrafts", {
      token: "secret",
      expiresAt: Date.now() + DAY,
      uploads: 0,
      signUps: 0,
    }),
    chatMessages: await ctx.db.insert("chatMessages", { bookingId, senderId: userId, text: "Hi" }),
    chatMembers: await ctx.db.insert("chatMembers", { bookingId, userId, unread: 1, readUpTo: 0 }),
    chatTyping: await ctx.db.insert("chatTyping", { bookingId, userId, at: Date.now() }),
    chatAdminReads: await ctx.db.insert("chatAdminReads", { bookingId, adminId: userId }),
    paymentAttempts: await ctx.db.insert("paymentAttempts", {
      bookingId,
      customerId: userId,
      method: "esewa",
      reference: "reference",
      amountPaisa: 50_000,
      state: "open",
      checks: 0,
      updatedAt: Date.now(),
    }),
  };
  return {
    ...ids,
    _storage: storageId,
    _scheduled_functions: await ctx.scheduler.runAfter(DAY, internal.files.sweepOrphans, {}),
  };
}

/** Every document of every table, system tables included, to compare before and after. */
async function everything(ctx: MutationCtx) {
  const tables = await Promise.all(
    (Object.keys(schema.tables) as TableNames[]).map(
      async (table) => [table, await ctx.db.query(table).collect()] as const,
    ),
  );
  return {
    ...Object.fromEntries(tables),
    _storage: await ctx.db.system.query("_storage").collect(),
    _scheduled_functions: await ctx.db.system.query("_scheduled_functions").collect(),
  };
}

/** Signs `userId` in through the library's own flow; returns its session and refresh token. */
async function startSession(t: TestConvex, userId: Id<"users">) {
  const result = (await t.mutation(internal.auth.store, {
    args: { type: "signIn", userId, generateTokens: true },
  })) as {
    sessionId: Id<"authSessions">;
    tokens: { refreshToken: string };
  };
  return { sessionId: result.sessionId, refreshToken: result.tokens.refreshToken };
}

describe("ids of the wrong table never reach @convex-dev/auth", () => {
  test("a refresh token made of ids of any table deletes nothing and answers as a garbage token does; real tokens still refresh", async () => {
    const t = newTest();
    const ids = await t.run(oneOfEveryTable);
    expect(Object.keys(ids).sort()).toEqual(
      [...Object.keys(schema.tables), "_storage", "_scheduled_functions"].sort(),
    );
    const own = await startSession(t, ids.users);
    const other = await startSession(
      t,
      await t.run((ctx) => ctx.db.insert("users", { name: "Other", role: "customer" })),
    );
    const [ownToken, ownSession] = own.refreshToken.split("|");

    const garbage = await signIn(t, undefined, undefined, "garbage|token");
    expect(garbage).toEqual({ tokens: null });
    const before = await t.run(everything);
    // halves that are ids of the right tables but do not belong together, and ids of every table
    const tokens = [
      `${ownToken}|${other.sessionId}`,
      `${ownSession}|${ownToken}`,
      "garbage",
      "|",
      `${ownToken}|${ownSession}|x`,
    ];
    for (const id of Object.values(ids)) {
      tokens.push(
        `${id}|${id}`,
        `${ownToken}|${id}`,
        `${id}|${ownSession}`,
        `${id}|${other.sessionId}`,
      );
    }
    for (const refreshToken of tokens) {
      expect(await signIn(t, undefined, undefined, refreshToken), refreshToken).toEqual(garbage);
    }
    expect(await t.run(everything)).toEqual(before);

    const refreshed = await signIn(t, undefined, undefined, own.refreshToken);
    expect(refreshed.tokens?.token).toBeTypeOf("string");
  }, 60_000);

  test("sign-out and the OAuth verifier step act on ids of their own table only", async () => {
    const t = newTest();
    const ids = await t.run(oneOfEveryTable);
    const before = await t.run(everything);
    for (const id of Object.values(ids)) {
      if (id !== ids.authSessions)
        await t.withIdentity({ subject: `${ids.users}|${id}` }).action(api.auth.signOut, {});
      if (id !== ids.authVerifiers) {
        await t.mutation(internal.auth.store, {
          args: { type: "verifierSignature", verifier: id, signature: "forged" },
        });
      }
      expect(await t.run(everything), id).toEqual(before);
    }

    await t.mutation(internal.auth.store, {
      args: { type: "verifierSignature", verifier: ids.authVerifiers, signature: "real" },
    });
    expect(await t.run((ctx) => ctx.db.get("authVerifiers", ids.authVerifiers))).toMatchObject({
      signature: "real",
    });
    await t
      .withIdentity({ subject: `${ids.users}|${ids.authSessions}` })
      .action(api.auth.signOut, {});
    expect(await t.run((ctx) => ctx.db.get("authSessions", ids.authSessions))).toBeNull();
  });

  test("a verification code, which no provider here issues, is refused without counting against the identifier it names", async () => {
    const t = newTest();
    const { password } = await t.action(internal.admin.createAdmin, { username: "boss" });
    const accountId = await t.run(
      async (ctx) => (await ctx.db.query("authAccounts").take(1))[0]._id,
    );
    for (let i = 0; i < 12; i++) {
      expect(await signIn(t, undefined, { code: "123456", email: accountId })).toEqual({
        tokens: null,
      });
    }
    expect(await t.run((ctx) => ctx.db.query("authRateLimits").collect())).toEqual([]);
    const ok = await signIn(t, "admin", { flow: "signIn", username: "boss", password });
    expect(ok.tokens?.token).toBeTypeOf("string");
  });

  test("auth:store stays internal: clients cannot call it", () => {
    expect((store as { isPublic?: boolean }).isPublic).toBeUndefined();
    expect((store as { isInternal?: boolean }).isInternal).toBe(true);
  });
});
