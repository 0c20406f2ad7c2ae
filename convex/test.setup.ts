/// <reference types="vite/client" />
import { convexTest } from "convex-test";
import { afterAll, beforeAll } from "vitest";
import schema from "./schema";
import { api, internal } from "./_generated/api";
import type { WithoutSystemFields } from "convex/server";
import type { Doc, Id } from "./_generated/dataModel";
import { openBill } from "./model/bill";
import { recordStoredFile } from "./model/files";
import { PASSWORD_HASH } from "./model/passwords";
import { confirmCash, paymentOf, recordPayment } from "./model/ledger";
import { findDraft } from "./model/signUpDrafts";
import { searchRankOf } from "./rules/searchRank";
import { DRAFT_LIMITS } from "./rules/limits";
import type { BookingStatus, CitySlug, SpecialtySlug } from "./validators";

// The glob in convex-test's README returns nothing under Vite 8; this form does.
export const modules = import.meta.glob(["./**/*.*s", "!./**/*.test.*s"]);

/**
 * Password hashes at a fraction of their cost, for tests that sign up and sign in by the dozen and
 * drills that do so by the thousand. Each password hash and each check of one (a wrong password and
 * an unknown account alike: model/passwords.ts hashes against a hash that matches nothing) runs
 * PBKDF2 at `PASSWORD_HASH.iterations` (600,000: ~0.26 s of a core), most of the CPU of sign-up,
 * sign-in and seed tests, and what they check (who may sign in, what is stored, what is refused) does
 * not depend on the count. While the double is on, PBKDF2 at that count derives with
 * `CHEAP_PASSWORD_ITERATIONS` instead — for hashing and checking alike, so a right password still
 * matches and a wrong one still does not; stored hashes still say `i=600000`. Every other use of Web
 * Crypto (sign-up stamps, tokens) is untouched. Hashes made while it is on only verify while it is
 * on. A test of the hashing itself (its cost, its stored format) runs without it.
 */
const CHEAP_PASSWORD_ITERATIONS = 1_000;

/** Puts the double on `crypto.subtle` (the object the functions under convex-test use); returns its undo. */
function cheapPasswordHashes(): () => void {
  const subtle = crypto.subtle;
  const real = subtle.deriveBits;
  const cheap: SubtleCrypto["deriveBits"] = (algorithm, baseKey, length) => {
    const params = algorithm as Pbkdf2Params;
    const costly = params.name === "PBKDF2" && params.iterations === PASSWORD_HASH.iterations;
    return real.call(
      subtle,
      costly ? { ...params, iterations: CHEAP_PASSWORD_ITERATIONS } : algorithm,
      baseKey,
      length,
    );
  };
  subtle.deriveBits = cheap;
  return () => {
    subtle.deriveBits = real;
  };
}

/** `cheapPasswordHashes` for the file or `describe` block it is called in, from its first test to its last. */
export function useCheapPasswordHashes(): void {
  let realPasswordHashes = () => {};
  beforeAll(() => {
    realPasswordHashes = cheapPasswordHashes();
  });
  afterAll(() => realPasswordHashes());
}

export function newTest() {
  return convexTest(schema, modules);
}
export type TestConvex = ReturnType<typeof newTest>;
/** A test accessor acting as someone (or as a visitor). */
export type Caller = ReturnType<TestConvex["withIdentity"]>;

/**
 * An accessor acting as `userId` through a new auth session, with the identity @convex-dev/auth's tokens
 * carry (subject "<userId>|<sessionId>"); deleting the session signs it out.
 */
export async function withSession(t: TestConvex, userId: Id<"users">) {
  const sessionId = await t.run((ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 30 * 24 * 3_600_000 }),
  );
  return { sessionId, as: t.withIdentity({ subject: `${userId}|${sessionId}` }) };
}

/** Deletes the account of a signed-in test user, as users:deleteAccount does once the password is right. */
export const deleteAccountOf = (
  t: TestConvex,
  caller: { userId: Id<"users">; sessionId: Id<"authSessions"> },
) =>
  t.mutation(internal.users.deleteCaller, {
    caller: { userId: caller.userId, sessionId: caller.sessionId },
  });

export async function insertCustomer(t: TestConvex, name = "Sita Sharma") {
  const userId = await t.run((ctx) =>
    ctx.db.insert("users", {
      name,
      role: "customer",
      email: `${name.toLowerCase().replace(/\s+/g, ".")}.${Math.random().toString(36).slice(2, 8)}@example.np`,
      phone: "9800000001",
      address: "Ward 4, Baneshwor",
      zipCode: "44600",
    }),
  );
  return { userId, ...(await withSession(t, userId)) };
}

/**
 * An admin with two-factor on (functions.ts refuses an admin without it everything but setting it
 * up), unless `twoFactor: false`. The enrolment has no working secret: tests of codes set one up
 * through twoFactor:begin/confirm (twoFactor.test.ts).
 */
export async function insertAdmin(
  t: TestConvex,
  username = "admin",
  { twoFactor = true }: { twoFactor?: boolean } = {},
) {
  const userId = await t.run((ctx) =>
    ctx.db.insert("users", { name: "Admin", role: "admin", username }),
  );
  if (twoFactor) await markTwoFactorOn(t, userId);
  return { userId, ...(await withSession(t, userId)) };
}

/** Marks an admin's two-factor as set up, as twoFactor:confirm leaves it (minus a usable secret). */
export async function markTwoFactorOn(t: TestConvex, userId: Id<"users">) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("twoFactor")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique();
    if (row !== null) return;
    await ctx.db.insert("twoFactor", {
      userId,
      secret: "fixture: no usable secret",
      setupStartedAt: Date.now(),
      enabledAt: Date.now(),
      recoveryCodes: [],
    });
  });
}

export async function insertProfessional(
  t: TestConvex,
  opts: {
    name?: string;
    specialty?: SpecialtySlug;
    city?: CitySlug;
    verified?: boolean;
    available?: boolean;
    /** Whether the phone number was verified by an SMS code (admins verify only such professionals). */
    phoneVerified?: boolean;
  } = {},
) {
  const {
    name = "Ram Thapa",
    specialty = "electrician",
    city = "kathmandu",
    verified = true,
    available = true,
    phoneVerified = true,
  } = opts;
  const ids = await t.run(async (ctx) => {
    const image = () =>
      ctx.storage.store(
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" }),
      );
    const userId = await ctx.db.insert("users", {
      name,
      role: "professional",
      email: `${name.toLowerCase().replace(/\s+/g, ".")}.${Math.random().toString(36).slice(2, 8)}@example.np`,
      phone: "9800000002",
      ...(phoneVerified ? { phoneVerificationTime: 0 } : {}),
      address: "Ward 10, Nepalgunj",
      zipCode: "21900",
    });
    const profile = {
      verification: verified
        ? { status: "verified" as const, at: 0 }
        : { status: "unverified" as const },
      rating: { sum: 0, count: 0 },
      available,
    };
    const professionalId = await ctx.db.insert("professionals", {
      userId,
      specialty,
      city,
      state: "Bagmati",
      locations: [{ city, state: "Bagmati", address: "Ward 10", zipCode: "44600" }],
      documents: {
        citizenshipFront: await image(),
        citizenshipBack: await image(),
        trainingCertificate: await image(),
      },
      ...profile,
      searchRank: searchRankOf(profile),
    });
    return { userId, professionalId };
  });
  return { ...ids, ...(await withSession(t, ids.userId)) };
}

/** Resolves to the `code` of the ConvexError a call rejects with (fails the test if it succeeds). */
export async function errorCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    const parsed = typeof data === "string" ? (JSON.parse(data) as unknown) : data;
    if (typeof parsed === "object" && parsed !== null && "code" in parsed)
      return String(parsed.code);
    throw error;
  }
  throw new Error("Expected the call to be refused, but it succeeded.");
}

/** Resolves to the readable `message` of the ConvexError a call rejects with. */
export async function errorMessage(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    const parsed = typeof data === "string" ? (JSON.parse(data) as unknown) : data;
    if (typeof parsed === "object" && parsed !== null && "message" in parsed)
      return String(parsed.message);
    throw error;
  }
  throw new Error("Expected the call to be refused, but it succeeded.");
}

/** @convex-dev/auth signs tokens with these; call in files that sign in with real passwords. */
/* eslint-disable @convex-dev/no-process-env -- tests play the deployment's environment */
export async function useAuthEnv(): Promise<void> {
  if (process.env.JWT_PRIVATE_KEY !== undefined) return;
  const { generateKeyPair, exportPKCS8 } = await import("jose");
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  process.env.JWT_PRIVATE_KEY = await exportPKCS8(privateKey);
  process.env.CONVEX_SITE_URL = "https://gharsewa.test";
  process.env.AUTH_LOG_LEVEL = "WARN";
}
/* eslint-enable @convex-dev/no-process-env */

/** A valid 1 × 1 PNG: uploads are checked by their image header. */
export const PNG_BYTES = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

export async function storeFile(t: TestConvex, bytes: Uint8Array = PNG_BYTES, type = "image/png") {
  return await t.run((ctx) => ctx.storage.store(new Blob([bytes as BlobPart], { type })));
}

/** A sign-up draft as signUpDrafts:create makes one, without solving its proof of work; returns its token. */
export async function signUpDraft(t: TestConvex): Promise<string> {
  const token = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  await t.run((ctx) =>
    ctx.db.insert("signUpDrafts", {
      token,
      expiresAt: Date.now() + DRAFT_LIMITS.lifetimeMs,
      uploads: 0,
      signUps: 0,
    }),
  );
  return token;
}

/** Sign-up params for `auth:signIn` with the "customer" provider (a fresh email unless given), with a draft of their own. */
export async function customerSignUp(t: TestConvex, email?: string) {
  return {
    flow: "signUp",
    draft: await signUpDraft(t),
    email: email ?? `user.${Math.random().toString(36).slice(2, 10)}@example.np`,
    password: "correct horse",
    name: "Hari Bahadur",
    phone: `984${Math.floor(Math.random() * 1e7)
      .toString()
      .padStart(7, "0")}`, // a phone number belongs to one account
    address: "Ward 3, Lakeside",
    zipCode: "33700",
  };
}

/**
 * A stored file recorded as an upload of a user or of a sign-up draft (by its token), as POST
 * /api/uploads records the files sent to the URLs files:generateUploadUrl hands out.
 */
export async function storeUpload(
  t: TestConvex,
  owner: { userId: Id<"users"> } | { draft: string },
  bytes: Uint8Array = PNG_BYTES,
  type = "image/png",
) {
  return await t.run(async (ctx) => {
    const storageId = await ctx.storage.store(new Blob([bytes as BlobPart], { type }));
    const by = "userId" in owner ? owner : { draftId: (await findDraft(ctx, owner.draft))!._id };
    await recordStoredFile(ctx, storageId, by);
    return storageId;
  });
}

/** Sign-up params for the "professional" provider, with three document images uploaded with its draft. */
export async function professionalSignUp(t: TestConvex, email?: string) {
  const params = await customerSignUp(t, email);
  const upload = () => storeUpload(t, { draft: params.draft });
  return {
    ...params,
    specialty: "Manson",
    city: "Pokhara",
    state: "Gandaki",
    citizenshipFront: await upload(),
    citizenshipBack: await upload(),
    trainingCertificate: await upload(),
  };
}

/** One accessor per kind of caller, for "who may call this" tests. */
export async function everyKindOfCaller(t: TestConvex) {
  const customer = await insertCustomer(t, "Caller Customer");
  const professional = await insertProfessional(t, { name: "Caller Professional" });
  const admin = await insertAdmin(t, "caller-admin");
  return { visitor: t, customer: customer.as, professional: professional.as, admin: admin.as };
}

/**
 * A booking in `status` between a customer and a professional, as a document to insert directly (no
 * rule applied): Ward 1, Kathmandu, an hour from now, Nrs. 500, unless `fields` say otherwise.
 */
export function bookingRow(
  customerId: Id<"users">,
  pro: { professionalId: Id<"professionals">; userId: Id<"users"> },
  status: BookingStatus,
  fields: Partial<WithoutSystemFields<Doc<"bookings">>> = {},
): WithoutSystemFields<Doc<"bookings">> {
  const now = Date.now();
  // a finished job took an hour, and its customer confirmed it (rules/bookingLifecycle.ts COMPLETION)
  const finished =
    status === "completed" || status === "reviewed"
      ? {
          acceptedAt: now - 2 * 60 * 60 * 1000,
          workDoneAt: now - 60 * 60 * 1000,
          confirmedBy: "customer" as const,
          confirmedAt: now - 60 * 60 * 1000,
        }
      : {};
  return {
    customerId,
    professionalId: pro.professionalId,
    professionalUserId: pro.userId,
    services: [],
    address: "Ward 1",
    city: "kathmandu",
    scheduledFor: Date.now() + 60 * 60 * 1000,
    price: 500,
    status,
    updatedAt: now,
    ...finished,
    ...fields,
  };
}

/** The arrived professional starts the job with the code its customer's screen shows (rules/startCode.ts). */
export async function startWithCustomersCode(
  customer: Caller,
  pro: Caller,
  bookingId: Id<"bookings">,
) {
  const booking = await customer.query(api.bookings.get, { bookingId });
  const code = booking?.start?.code;
  if (!code) throw new Error(`Booking ${bookingId} shows its customer no start code.`);
  await pro.mutation(api.bookings.start, { bookingId, code });
}

/** An Electrician booking request in Kathmandu an hour from now, by `customer` (the catalogue must be seeded). */
export async function requestElectricianBooking(
  t: TestConvex,
  customer: Caller,
  professionalId: Id<"professionals">,
) {
  const service = await t.run((ctx) =>
    ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
      .first(),
  );
  return await customer.mutation(api.bookings.create, {
    professionalId,
    serviceIds: [service!._id],
    address: "Baneshwor",
    city: "kathmandu",
    scheduledFor: Date.now() + 60 * 60 * 1000,
  });
}

export type SentMessage = { channel: "email" | "sms"; to: string; text: string; subject?: string };

/** Every message queued for delivery:send, oldest first. */
export async function outbox(t: TestConvex): Promise<SentMessage[]> {
  const jobs = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
  return jobs
    .filter((job) => job.name === "delivery:send" || job.name === "delivery.js:send")
    .map((job) => (job.args[0] as { message: SentMessage }).message);
}

/** The 6-digit code in a message. */
export const codeIn = (message: SentMessage | undefined) =>
  /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];

/**
 * A done job of `pro` for `customerId`, billed `rupees` and paid by `method` (cash: confirmed by
 * the customer): its payment and its job transaction are in the ledger.
 */
export async function insertPaidJob(
  t: TestConvex,
  customerId: Id<"users">,
  pro: { professionalId: Id<"professionals">; userId: Id<"users"> },
  opts: { rupees?: number; method?: "cash" | "esewa" | "khalti" } = {},
) {
  const { rupees = 1500, method = "esewa" } = opts;
  return await t.run(async (ctx) => {
    const bookingId = await ctx.db.insert("bookings", bookingRow(customerId, pro, "completed"));
    await openBill(ctx, bookingId, [{ name: "Fan Installation", price: rupees }], 0);
    await recordPayment(ctx, {
      bookingId,
      method,
      amountPaisa: rupees * 100,
      reference: `${method}:${bookingId}`,
    });
    // cash is booked once its customer confirms it
    const payment = await paymentOf(ctx, bookingId);
    if (method === "cash") await confirmCash(ctx, payment!._id);
    return bookingId;
  });
}

/** The first page of a paginated query, as the app asks for it. */
export const FIRST_PAGE = { paginationOpts: { numItems: 20, cursor: null } };

/**
 * A professional with `jobs` done and paid by a customer (insertPaidJob), and an admin: the
 * balances payouts and settlements start from.
 */
export async function proWithPaidJobs(jobs: Parameters<typeof insertPaidJob>[3][]) {
  const t = newTest();
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  for (const job of jobs) await insertPaidJob(t, customer.userId, pro, job);
  const admin = await insertAdmin(t);
  return { t, customer, pro, admin };
}

/**
 * The people around a billed booking: its customer Sita Sharma and another (Gita Karki), its
 * professional Ram Thapa and another (Hari Rai), and an admin.
 */
export async function bookingParties(t: TestConvex) {
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const otherPro = await insertProfessional(t, { name: "Hari Rai" });
  const admin = await insertAdmin(t);
  return { customer, otherCustomer, pro, otherPro, admin };
}

/** The bill of `billedBooking`: Fan Installation Nrs. 650 + visit Nrs. 200. */
export const FAN_JOB_PAISA = 85_000;

/**
 * A booking in `status` whose bill is a Fan Installation (Nrs. 650) and the visit (Nrs. 200),
 * paid by `paidBy` when given (cash: recorded, and confirmed when `cash` says so).
 */
export async function billedBooking(
  t: TestConvex,
  customerId: Id<"users">,
  pro: { professionalId: Id<"professionals">; userId: Id<"users"> },
  status: BookingStatus,
  opts: { paidBy?: "cash" | "esewa" | "khalti"; cash?: "awaiting" | "confirmed" } = {},
): Promise<Id<"bookings">> {
  return await t.run(async (ctx) => {
    const id = await ctx.db.insert("bookings", bookingRow(customerId, pro, status));
    await openBill(ctx, id, [{ name: "Fan Installation", price: 650 }], 200);
    if (opts.paidBy === undefined) return id;
    await recordPayment(ctx, {
      bookingId: id,
      method: opts.paidBy,
      amountPaisa: FAN_JOB_PAISA,
      reference: `${opts.paidBy}-ref-${id}`,
    });
    if (opts.paidBy === "cash" && opts.cash !== "awaiting")
      await confirmCash(ctx, (await paymentOf(ctx, id))!._id);
    return id;
  });
}

/** The ledger's sums per account and its transactions that do not sum to zero (none, ever). */
export async function ledgerSums(t: TestConvex) {
  const byTx = new Map<string, number>();
  const byAccount: Record<string, number> = {};
  for (const e of await t.run((ctx) => ctx.db.query("ledgerEntries").collect())) {
    byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + e.amountPaisa);
    byAccount[e.account] = (byAccount[e.account] ?? 0) + e.amountPaisa;
  }
  const unbalanced = [...byTx].filter(([, sum]) => sum !== 0).map(([txId]) => txId);
  return { transactions: byTx.size, byAccount, unbalanced };
}

/** The notifications of `userId`, oldest first. */
export const noticesOf = (t: TestConvex, userId: Id<"users">) =>
  t.run((ctx) =>
    ctx.db
      .query("notifications")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .collect(),
  );
