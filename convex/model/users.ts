/**
 * Accounts: sign-up input rules, creating the user (and professional profile) inside auth's store
 * mutation, the public profile shape, and account deletion.
 */
import { ConvexError, v, type Infer, type Value } from "convex/values";
import { z } from "zod";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { validate } from "convex-helpers/validators";
import { SPECIALTIES, city, locale, specialty, type Role, type SpecialtySlug } from "../validators";
import { transition } from "./bookings";
import { resolveCity } from "./catalog";
import {
  asStorageId,
  attachOwnFile,
  photoUrlOf,
  releaseFile,
  urlOf,
  type UploadOwner,
} from "./files";
import { professionalOfUser } from "./professionalOfUser";
import { requireDraft } from "./signUpDrafts";
import { fail, refusal } from "./errors";
import { DOCUMENT_KINDS, DOCUMENT_LABEL, type DocumentKind } from "../rules/documents";
import { citiesNamedIn } from "../rules/address";
import { ACTIVE_STATUSES, OPEN_STATUSES } from "../rules/bookingLifecycle";
import {
  PASSWORD_LENGTH,
  emailRule,
  passwordRule,
  profileRules,
  stateRule,
} from "../rules/profile";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** A specialty slug from its slug, display name or one of the spec's legacy spellings ("Manson"). */
export function resolveSpecialty(input: string): SpecialtySlug | null {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  const found = SPECIALTIES.find((s) =>
    [s.slug, s.name, ...s.aliases].some((k) => k.toLowerCase().replace(/[^a-z0-9]/g, "") === key),
  );
  return found?.slug ?? null;
}

export { profileRules };

const requiredId = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message });

const optionalId = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim()));

const customerSignUp = z.object({
  email: emailRule.transform((email) => email.toLowerCase()),
  password: passwordRule,
  ...profileRules,
  photo: optionalId,
});

const professionalSignUp = customerSignUp.extend({
  specialty: z
    .string({ error: "Specialty is required." })
    .transform(
      (s, ctx) =>
        resolveSpecialty(s) ??
        (ctx.addIssue({ code: "custom", message: "Choose a specialty from the list." }), z.NEVER),
    ),
  city: z
    .string({ error: "City is required." })
    .transform(
      (s, ctx) =>
        resolveCity(s) ??
        (ctx.addIssue({ code: "custom", message: "Choose a city from the list." }), z.NEVER),
    ),
  state: stateRule,
  ...(Object.fromEntries(
    DOCUMENT_KINDS.map(({ key, label }) => [key, requiredId(`${label} image is required.`)]),
  ) as Record<DocumentKind, ReturnType<typeof requiredId>>),
});

/** What the sign-up action hands to auth's store mutation (as `profile`). Never carries a role. */
export const signUpProfile = v.object({
  email: v.string(),
  name: v.string(),
  phone: v.string(),
  address: v.string(),
  zipCode: v.string(),
  photo: v.optional(v.id("_storage")),
  draft: v.optional(v.string()), // the sign-up draft's token: its uploads are the files it may attach
  professional: v.optional(
    v.object({
      specialty,
      city,
      state: v.string(),
      citizenshipFront: v.id("_storage"),
      citizenshipBack: v.id("_storage"),
      trainingCertificate: v.id("_storage"),
    }),
  ),
});
export type SignUpProfile = Infer<typeof signUpProfile>;

const adminProfile = v.object({ username: v.string(), name: v.string() });

/** How refusals name each file a person uploads. */
export const DOCUMENT_LABELS = { photo: "Profile photo", ...DOCUMENT_LABEL } as const;

export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Please check the form.";
}

/** Validates sign-up params for a customer or professional; the role comes from the caller, never from params. */
export function parseSignUp(
  role: "customer" | "professional",
  params: Record<string, Value | undefined>,
): { password: string; profile: SignUpProfile; files: { id: Id<"_storage">; label: string }[] } {
  if (role === "customer") {
    const parsed = customerSignUp.safeParse(params);
    if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
    const { password, photo, ...rest } = parsed.data;
    const photoId = photo === undefined ? undefined : asStorageId(photo, DOCUMENT_LABELS.photo);
    return {
      password,
      profile: { ...rest, ...(photoId ? { photo: photoId } : {}) },
      files: photoId ? [{ id: photoId, label: DOCUMENT_LABELS.photo }] : [],
    };
  }
  const parsed = professionalSignUp.safeParse(params);
  if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
  const {
    password,
    photo,
    specialty,
    city,
    state,
    citizenshipFront,
    citizenshipBack,
    trainingCertificate,
    ...rest
  } = parsed.data;
  const docs = {
    citizenshipFront: asStorageId(citizenshipFront, DOCUMENT_LABELS.citizenshipFront),
    citizenshipBack: asStorageId(citizenshipBack, DOCUMENT_LABELS.citizenshipBack),
    trainingCertificate: asStorageId(trainingCertificate, DOCUMENT_LABELS.trainingCertificate),
  };
  if (new Set(Object.values(docs)).size < 3)
    fail("INVALID_INPUT", "Upload a separate image for each document.");
  const photoId = photo === undefined ? undefined : asStorageId(photo, DOCUMENT_LABELS.photo);
  return {
    password,
    profile: {
      ...rest,
      ...(photoId ? { photo: photoId } : {}),
      professional: { specialty, city, state, ...docs },
    },
    files: [
      ...(photoId ? [{ id: photoId, label: DOCUMENT_LABELS.photo }] : []),
      { id: docs.citizenshipFront, label: DOCUMENT_LABELS.citizenshipFront },
      { id: docs.citizenshipBack, label: DOCUMENT_LABELS.citizenshipBack },
      { id: docs.trainingCertificate, label: DOCUMENT_LABELS.trainingCertificate },
    ],
  };
}

export async function userByEmail(ctx: QueryCtx, email: string): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", normalizeEmail(email)))
    .first();
}

export async function userByUsername(
  ctx: QueryCtx,
  username: string,
): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("by_username", (q) => q.eq("username", normalizeUsername(username)))
    .first();
}

export function emailTaken(): ConvexError<{ code: string; message: string }> {
  return refusal("EMAIL_TAKEN", "An account with this email already exists");
}

export function usernameTaken(): ConvexError<{ code: string; message: string }> {
  return refusal("USERNAME_TAKEN", "An admin with this username already exists.");
}

/**
 * Creates the user for a new auth account, inside auth's store mutation. The role is the provider id
 * the server ran; a professional's profile row is written in the same transaction.
 */
export async function createUserForAccount(
  ctx: MutationCtx,
  providerId: string,
  rawProfile: Record<string, unknown>,
): Promise<Id<"users">> {
  if (providerId === "admin") {
    if (!validate(adminProfile, rawProfile))
      fail("INVALID_INPUT", "The admin account details are incomplete.");
    const { username, name } = rawProfile;
    if (await userByUsername(ctx, username)) throw usernameTaken();
    return await ctx.db.insert("users", {
      role: "admin",
      username: normalizeUsername(username),
      name,
    });
  }
  if (providerId !== "customer" && providerId !== "professional") {
    fail("FORBIDDEN", "Accounts of this kind cannot be created.");
  }
  const role: Role = providerId;
  if (!validate(signUpProfile, rawProfile))
    fail("INVALID_INPUT", "The account details are incomplete.");
  const profile = rawProfile;
  if (await userByEmail(ctx, profile.email)) throw emailTaken();
  if (role === "professional" && profile.professional === undefined) {
    fail("INVALID_INPUT", "Professionals must upload their citizenship and training documents.");
  }
  const pro = role === "professional" ? profile.professional : undefined;
  const files = (
    [
      [profile.photo, DOCUMENT_LABELS.photo],
      [pro?.citizenshipFront, DOCUMENT_LABELS.citizenshipFront],
      [pro?.citizenshipBack, DOCUMENT_LABELS.citizenshipBack],
      [pro?.trainingCertificate, DOCUMENT_LABELS.trainingCertificate],
    ] as const
  ).flatMap(([id, label]) => (id === undefined ? [] : [{ id, label }]));
  // the files must be uploads of the sign-up's draft (of the deployment, for accounts its own code
  // creates without one); attaching them makes them the new user's
  const owner: UploadOwner =
    profile.draft === undefined
      ? { deployment: true }
      : { draftId: (await requireDraft(ctx, profile.draft))._id };
  const userId = await ctx.db.insert("users", {
    role,
    name: profile.name,
    email: normalizeEmail(profile.email),
    phone: profile.phone,
    address: profile.address,
    zipCode: profile.zipCode,
    ...(profile.photo !== undefined ? { photo: profile.photo } : {}),
  });
  if (pro !== undefined) {
    await ctx.db.insert("professionals", {
      userId,
      specialty: pro.specialty,
      city: pro.city,
      state: pro.state,
      locations: [
        { city: pro.city, state: pro.state, address: profile.address, zipCode: profile.zipCode },
      ],
      documents: {
        citizenshipFront: pro.citizenshipFront,
        citizenshipBack: pro.citizenshipBack,
        trainingCertificate: pro.trainingCertificate,
      },
      verification: { status: "unverified" },
      rating: { sum: 0, count: 0 },
      available: true,
    });
  }
  for (const { id, label } of files) await attachOwnFile(ctx, id, label, owner, userId);
  return userId;
}

export const viewerShape = v.object({
  _id: v.id("users"),
  name: v.string(),
  role: v.union(v.literal("customer"), v.literal("professional"), v.literal("admin")),
  email: v.string(),
  phone: v.string(),
  photoUrl: v.union(v.string(), v.null()),
  address: v.string(),
  zipCode: v.string(),
  username: v.optional(v.string()),
  /** The user's own city: a professional's, or the first listed city a customer's address names. */
  city: v.optional(city),
  language: v.optional(locale),
});
export type ViewerShape = Infer<typeof viewerShape>;

export async function publicProfile(
  ctx: QueryCtx,
  user: Doc<"users">,
): Promise<ViewerShape | null> {
  if (user.role === undefined) return null;
  const pro = user.role === "professional" ? await professionalOfUser(ctx, user._id) : null;
  const ownCity = pro?.city ?? citiesNamedIn(user.address ?? "")[0];
  return {
    _id: user._id,
    name: user.name ?? "",
    role: user.role,
    email: user.email ?? "",
    phone: user.phone ?? "",
    photoUrl: await photoUrlOf(ctx, user),
    address: user.address ?? "",
    zipCode: user.zipCode ?? "",
    ...(user.username !== undefined ? { username: user.username } : {}),
    ...(ownCity !== undefined ? { city: ownCity } : {}),
    ...(user.language !== undefined ? { language: user.language } : {}),
  };
}

const EXPORT_LIMIT = 1000;
const PURGE_BATCH = 500;
const OPEN_SCAN = 500;

/** Everything stored about one user, bounded per table. */
export async function exportUserData(ctx: QueryCtx, user: Doc<"users">) {
  const professional = await professionalOfUser(ctx, user._id);
  const [asCustomer, asProfessional, notifications, presence] = await Promise.all([
    ctx.db
      .query("bookings")
      .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
      .order("desc")
      .take(EXPORT_LIMIT),
    professional === null
      ? Promise.resolve([])
      : ctx.db
          .query("bookings")
          .withIndex("by_professionalId", (q) => q.eq("professionalId", professional._id))
          .order("desc")
          .take(EXPORT_LIMIT),
    ctx.db
      .query("notifications")
      .withIndex("by_userId", (q) => q.eq("userId", user._id))
      .order("desc")
      .take(EXPORT_LIMIT),
    ctx.db
      .query("presence")
      .withIndex("by_userId", (q) => q.eq("userId", user._id))
      .unique(),
  ]);
  const reviewsWritten = (
    await Promise.all(
      asCustomer.map((b) =>
        ctx.db
          .query("reviews")
          .withIndex("by_bookingId", (q) => q.eq("bookingId", b._id))
          .unique(),
      ),
    )
  ).filter((r) => r !== null);
  const { photo, ...account } = user;
  return {
    account: { ...account, photoUrl: await urlOf(ctx, photo) },
    professional:
      professional === null
        ? null
        : {
            ...professional,
            documents: {
              citizenshipFront: await urlOf(ctx, professional.documents.citizenshipFront),
              citizenshipBack: await urlOf(ctx, professional.documents.citizenshipBack),
              trainingCertificate: await urlOf(ctx, professional.documents.trainingCertificate),
            },
          },
    bookingsAsCustomer: asCustomer,
    bookingsAsProfessional: asProfessional,
    reviewsWritten,
    notifications,
    presence,
  };
}

/** Removes the account and everything only it owns, except notifications (see purgeNotifications). */
export async function deleteAccountData(ctx: MutationCtx, user: Doc<"users">): Promise<void> {
  if (user.role === "admin") {
    const admins = await ctx.db
      .query("users")
      .withIndex("by_role", (q) => q.eq("role", "admin"))
      .take(2);
    if (admins.length < 2) fail("LAST_ADMIN", "The last admin account cannot be deleted.");
  }
  const professional = await professionalOfUser(ctx, user._id);

  const asCustomer = await ctx.db
    .query("bookings")
    .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
    .order("desc")
    .take(OPEN_SCAN);
  const proOpen =
    professional === null
      ? []
      : await Promise.all(
          OPEN_STATUSES.map((status) =>
            ctx.db
              .query("bookings")
              .withIndex("by_professionalId_and_status", (q) =>
                q.eq("professionalId", professional._id).eq("status", status),
              )
              .take(OPEN_SCAN),
          ),
        ).then((lists) => lists.flat());
  if ([...asCustomer, ...proOpen].some((b) => ACTIVE_STATUSES.includes(b.status))) {
    fail(
      "BOOKINGS_UNDER_WAY",
      "Finish or cancel your bookings under way before deleting your account.",
    );
  }
  for (const b of asCustomer.filter((b) => b.status === "requested")) {
    await transition(ctx, {
      bookingId: b._id,
      to: "cancelled",
      actor: "customer",
      actorUser: user,
      reason: "The customer closed their account.",
    });
  }
  for (const b of proOpen.filter((b) => b.status === "requested")) {
    await transition(ctx, {
      bookingId: b._id,
      to: "rejected",
      actor: "professional",
      actorUser: user,
      reason: "The professional closed their account.",
    });
  }

  if (professional !== null) {
    const live = await ctx.db
      .query("liveLocations")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", professional._id))
      .unique();
    if (live !== null) await ctx.db.delete("liveLocations", live._id);
    for (const id of Object.values(professional.documents)) await releaseFile(ctx, id);
    await ctx.db.delete("professionals", professional._id);
  }
  if (user.photo !== undefined) await releaseFile(ctx, user.photo);
  const presence = await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .unique();
  if (presence !== null) await ctx.db.delete("presence", presence._id);

  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", user._id))
    .take(PURGE_BATCH);
  for (const session of sessions) await endAuthSession(ctx, session._id);
  const accounts = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id))
    .take(10);
  for (const account of accounts) {
    const limits = await ctx.db
      .query("authRateLimits")
      .withIndex("identifier", (q) => q.eq("identifier", account._id))
      .take(10);
    for (const limit of limits) await ctx.db.delete("authRateLimits", limit._id);
    await ctx.db.delete("authAccounts", account._id);
  }
  await ctx.db.delete("users", user._id);
}

/** Deletes one batch of a deleted user's notifications; true when more remain. */
export async function purgeNotifications(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  const batch = await ctx.db
    .query("notifications")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(PURGE_BATCH);
  for (const n of batch) await ctx.db.delete("notifications", n._id);
  return batch.length === PURGE_BATCH;
}

const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random password of `length` characters from an unambiguous alphabet. */
export function randomPassword(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 256 is not a multiple of the alphabet size; the bias is negligible at 57 symbols x 20 characters.
  return Array.from(bytes, (b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join("");
}

/** Checks admin credentials before an admin account is created; returns them normalised. */
export function adminCredentials(args: { username: string; password?: string }): {
  username: string;
  password: string;
} {
  const username = normalizeUsername(args.username);
  if (!USERNAME.test(username)) {
    fail(
      "INVALID_INPUT",
      "Username: 3-32 characters, letters, digits, '.', '_' or '-', starting with a letter or digit.",
    );
  }
  const password = args.password ?? randomPassword();
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    fail(
      "INVALID_INPUT",
      `Password must be ${PASSWORD_LENGTH.min}-${PASSWORD_LENGTH.max} characters.`,
    );
  }
  return { username, password };
}

export async function endAuthSession(
  ctx: MutationCtx,
  sessionId: Id<"authSessions">,
): Promise<void> {
  const tokens = await ctx.db
    .query("authRefreshTokens")
    .withIndex("sessionId", (q) => q.eq("sessionId", sessionId))
    .take(PURGE_BATCH);
  for (const token of tokens) await ctx.db.delete("authRefreshTokens", token._id);
  if ((await ctx.db.get("authSessions", sessionId)) !== null)
    await ctx.db.delete("authSessions", sessionId);
}
