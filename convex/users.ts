import { getAuthUserId } from "@convex-dev/auth/server";
import { v } from "convex/values";
import * as z from "zod/mini";
import { internal } from "./_generated/api";
import { internalMutation, internalQuery } from "./_generated/server";
import {
  callerAction,
  getSessionUser,
  setupPublicQuery,
  setupUserMutation,
  userMutation,
  userQuery,
} from "./functions";
import { awaitsTwoFactor } from "./model/twoFactor";
import { attachOwnFile, releaseFile } from "./model/files";
import { limitSignUp } from "./model/rateLimit";
import { requireDraft } from "./model/signUpDrafts";
import { deleteAccountData, exportUserData, purgeNotifications } from "./model/accountData";
import { endAuthSession } from "./model/sessions";
import { callerUser } from "./model/passwordChange";
import { verifyPassword } from "./model/passwords";
import { refreshMarker } from "./model/mapMarkers";
import { professionalOfUser } from "./model/professionalOfUser";
import {
  assertPhoneFree,
  DOCUMENT_LABELS,
  normalizeEmail,
  profileRules,
  publicProfile,
  userByEmail,
  viewerShape,
} from "./model/users";
import { phoneChanged } from "./model/contactVerification";
import { fail, firstIssue } from "./model/errors";
import { locale } from "./validators";
import { phoneDigits } from "./rules/profile";

/** The signed-in user's public profile (an admin's too, before two-factor), or null for visitors. */
export const viewer = setupPublicQuery({
  args: {},
  returns: v.union(viewerShape, v.null()),
  handler: async (ctx) => (ctx.viewer === null ? null : await publicProfile(ctx, ctx.viewer)),
});

/**
 * What became of the signed-in account: "active", or "suspended" when an admin suspended it (the token
 * still names the user, but their sessions are gone: the app signs out and says why), or "none" for a
 * visitor or a session that ended otherwise.
 */
export const accountStatus = setupPublicQuery({
  args: {},
  returns: v.union(v.literal("active"), v.literal("suspended"), v.literal("none")),
  handler: async (ctx) => {
    if (ctx.viewer !== null) return "active";
    const userId = await getAuthUserId(ctx);
    const user = userId === null ? null : await ctx.db.get("users", userId);
    return user?.suspended !== undefined ? "suspended" : "none";
  },
});

/**
 * Remembers the interface language the signed-in user chose with a language switch (their devices
 * without a choice of their own adopt it at sign-in). A language only detected is never saved.
 */
export const setLanguage = setupUserMutation({
  args: { language: locale },
  returns: v.null(),
  handler: async (ctx, { language }) => {
    const { language: saved, languageChosen } = ctx.viewer;
    if (saved !== language || !languageChosen)
      await ctx.db.patch("users", ctx.viewer._id, { language, languageChosen: true });
    return null;
  },
});

const profileEdit = z.object(profileRules);

export const updateProfile = userMutation({
  args: {
    name: v.string(),
    phone: v.string(),
    address: v.string(),
    zipCode: v.string(),
    photo: v.optional(v.id("_storage")),
  },
  returns: v.null(),
  handler: async (ctx, { photo, ...fields }) => {
    const parsed = profileEdit.safeParse(fields);
    if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
    const user = ctx.viewer;
    await assertPhoneFree(ctx, parsed.data.phone, user);
    const newPhoto = photo !== undefined && photo !== user.photo ? photo : undefined;
    if (newPhoto !== undefined) {
      await attachOwnFile(ctx, newPhoto, DOCUMENT_LABELS.photo, { userId: user._id }, user._id);
    }
    const phone = phoneDigits(parsed.data.phone);
    await ctx.db.patch("users", user._id, {
      ...parsed.data,
      phone,
      ...(newPhoto ? { photo: newPhoto } : {}),
    });
    if (phone !== user.phone) await phoneChanged(ctx, user);
    if (user.role === "professional" && parsed.data.name !== user.name) {
      const pro = await professionalOfUser(ctx, user._id);
      if (pro !== null) await refreshMarker(ctx, pro._id);
    }
    if (newPhoto !== undefined) {
      if (user.photo !== undefined) await releaseFile(ctx, user.photo);
      await ctx.scheduler.runAfter(0, internal.files.verifyPhoto, {
        userId: user._id,
        storageId: newPhoto,
      });
    }
    return null;
  },
});

/** Everything stored about the signed-in user, as one JSON-able object (GDPR-style export). */
export const exportMyData = userQuery({
  args: {},
  handler: async (ctx) => await exportUserData(ctx, ctx.viewer),
});

/**
 * Deletes the signed-in user's account once their password is confirmed (a try counts against the
 * sign-in allowance, as changing it does): sessions, credentials, profile, documents and presence at
 * once; notifications in scheduled batches. Open requests are cancelled (customer) or rejected
 * (professional) so the other side is told; bookings under way must be finished first.
 */
export const deleteAccount = callerAction({
  args: { password: v.string() },
  returns: v.null(),
  handler: async (ctx, { password }) => {
    const { hash } = await ctx.runMutation(internal.passwordChange.tryPassword, {
      caller: ctx.caller,
    });
    if (!(await verifyPassword(password, hash)))
      fail("WRONG_PASSWORD", "Your current password is not correct.");
    await ctx.runMutation(internal.users.deleteCaller, { caller: ctx.caller });
    return null;
  },
});

export const deleteCaller = internalMutation({
  args: { caller: v.object({ userId: v.id("users"), sessionId: v.id("authSessions") }) },
  returns: v.null(),
  handler: async (ctx, { caller }) => {
    const user = await callerUser(ctx, caller);
    await deleteAccountData(ctx, user);
    await ctx.scheduler.runAfter(0, internal.users.purgeData, { userId: user._id });
    return null;
  },
});

export const purgeData = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    if (await purgeNotifications(ctx, userId)) {
      await ctx.scheduler.runAfter(0, internal.users.purgeData, { userId });
    }
    return null;
  },
});

/** Sign-up's early check, so a taken email is reported before documents are read. */
export const emailInUse = internalQuery({
  args: { email: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { email }) => (await userByEmail(ctx, email)) !== null,
});

/**
 * Counts a sign-up against its draft (model/signUpDrafts.ts), its email address and everyone's
 * ceiling, before its password is hashed; returns the draft, for signUpDrafts:spend once it succeeds.
 */
export const limitSignUps = internalMutation({
  args: { email: v.string(), draft: v.optional(v.string()) },
  returns: v.id("signUpDrafts"),
  handler: async (ctx, { email, draft: token }) => {
    const draft = await requireDraft(ctx, token);
    await limitSignUp(ctx, draft, normalizeEmail(email));
    return draft._id;
  },
});

/** The public profile of a user by id, for HTTP routes that just signed someone in. */
export const profileById = internalQuery({
  args: { userId: v.id("users") },
  returns: v.union(viewerShape, v.null()),
  handler: async (ctx, { userId }) => {
    const user = await ctx.db.get("users", userId);
    return user === null ? null : await publicProfile(ctx, user);
  },
});

/** Ends one session and its refresh tokens (registration over HTTP does not leave the user signed in). */
export const endSession = internalMutation({
  args: { sessionId: v.id("authSessions") },
  returns: v.null(),
  handler: async (ctx, { sessionId }) => {
    await endAuthSession(ctx, sessionId);
    return null;
  },
});

/**
 * The user behind an HTTP API token, or null (also once POST /api/signout has ended its session);
 * `awaitsTwoFactor` for an admin who has not set up two-factor (httpRoutes/transport.ts refuses them).
 */
export const apiViewer = internalQuery({
  args: {},
  returns: v.union(v.object({ profile: viewerShape, awaitsTwoFactor: v.boolean() }), v.null()),
  handler: async (ctx) => {
    const user = await getSessionUser(ctx);
    const profile = user === null ? null : await publicProfile(ctx, user);
    if (user === null || profile === null) return null;
    return { profile, awaitsTwoFactor: await awaitsTwoFactor(ctx, user) };
  },
});
