/**
 * Accounts: sign-up input rules, creating the user (and professional profile) inside auth's store
 * mutation, the public profile shape. Export and deletion: accountData.ts; admin credentials:
 * adminCredentials.ts; sign-out: sessions.ts.
 */
import { ConvexError, v, type Infer, type Value } from "convex/values";
import * as z from "zod/mini";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { validate } from "convex-helpers/validators";
import { SPECIALTIES, city, locale, specialty, type Role, type SpecialtySlug } from "../validators";
import { resolveCity } from "./catalog";
import { asStorageId, attachOwnFile, photoUrlOf, type UploadOwner } from "./files";
import { professionalOfUser } from "./professionalOfUser";
import { searchRankOf } from "../rules/searchRank";
import { requireDraft } from "./signUpDrafts";
import { fail, firstIssue, refusal } from "./errors";
import { DOCUMENT_KINDS, DOCUMENT_LABEL, type DocumentKind } from "../rules/documents";
import { cityOfAddress } from "../rules/address";
import { emailRule, passwordRule, phoneDigits, profileRules, stateRule } from "../rules/profile";

/** A new professional's profile: unverified, unrated, available. */
const NEW_PROFILE = {
  verification: { status: "unverified" as const },
  rating: { sum: 0, count: 0 },
  available: true,
};

/** A user's role; accounts made before roles were stored are customers. */
export const roleOf = (user: Doc<"users">): Role => user.role ?? "customer";

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
  z.string({ error: message }).check(z.trim(), z.minLength(1, { error: message }));

const optionalId = z.pipe(
  z.optional(z.string()),
  z.transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim())),
);

/** A text field resolved to a catalogue slug, or `problem` when it names nothing in the catalogue. */
const resolved = <T>(required: string, resolve: (s: string) => T | null, problem: string) =>
  z.pipe(
    z.string({ error: required }),
    z.transform((s: string, ctx) => {
      const found = resolve(s);
      if (found !== null) return found;
      ctx.issues.push({ code: "custom", message: problem, input: s });
      return z.NEVER;
    }),
  );

const customerSignUp = z.object({
  email: z.pipe(
    emailRule,
    z.transform((email: string) => email.toLowerCase()),
  ),
  password: passwordRule,
  ...profileRules,
  photo: optionalId,
});

const professionalSignUp = z.extend(customerSignUp, {
  specialty: resolved(
    "Specialty is required.",
    resolveSpecialty,
    "Choose a specialty from the list.",
  ),
  city: resolved("City is required.", resolveCity, "Choose a city from the list."),
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

/** The account a phone number belongs to (numbers are stored as their digits, rules/profile.ts). */
export async function userByPhone(ctx: QueryCtx, phone: string): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("phone", (q) => q.eq("phone", phoneDigits(phone.trim())))
    .first();
}

/**
 * A phone number belongs to one account: refuses one another account has. The number `self` already
 * has stays theirs, also where an older account shares it from before numbers were unique.
 */
export async function assertPhoneFree(
  ctx: QueryCtx,
  phone: string,
  self?: Doc<"users">,
): Promise<void> {
  if (self !== undefined && self.phone === phoneDigits(phone.trim())) return;
  const owner = await userByPhone(ctx, phone);
  if (owner !== null && owner._id !== self?._id)
    throw refusal("PHONE_TAKEN", "An account with this phone number already exists.");
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
  await assertPhoneFree(ctx, profile.phone);
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
    phone: phoneDigits(profile.phone.trim()),
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
      ...NEW_PROFILE,
      searchRank: searchRankOf(NEW_PROFILE),
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
  /** The language the user chose with a language switch (never one only detected). */
  language: v.optional(locale),
  /** The email address / phone number was verified by a code (model/contactVerification.ts). */
  emailVerified: v.boolean(),
  phoneVerified: v.boolean(),
});
export type ViewerShape = Infer<typeof viewerShape>;

export async function publicProfile(
  ctx: QueryCtx,
  user: Doc<"users">,
): Promise<ViewerShape | null> {
  if (user.role === undefined) return null;
  const pro = user.role === "professional" ? await professionalOfUser(ctx, user._id) : null;
  const ownCity = pro?.city ?? cityOfAddress(user.address ?? "");
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
    ...(user.language !== undefined && user.languageChosen ? { language: user.language } : {}),
    emailVerified: user.emailVerificationTime !== undefined,
    phoneVerified: user.phoneVerificationTime !== undefined,
  };
}

/** Whether the user may be listed, booked and signed in as (a missing user may not). */
export function inGoodStanding(user: Doc<"users"> | null): user is Doc<"users"> {
  return user !== null && user.suspended === undefined;
}
