/**
 * @convex-dev/auth with three credential providers whose ids are the roles: "customer" and
 * "professional" (email or mobile number + password, or a verified mobile number + a code sent there
 * by SMS) and
 * "admin" (username + password + authenticator code, sign-in only; a one-time setup link sets the
 * password).
 *
 * The providers are ConvexCredentials with our own `authorize` (rather than the library's Password)
 * so that every failure reaches the client as a ConvexError with a readable message, and so that
 * sign-up documents are checked byte by byte before any row is written. Passwords are hashed with
 * PBKDF2 through Web Crypto (model/passwords.ts), natively and off the JavaScript thread.
 *
 * A password sign-in reads the account and checks its hash itself (signIns.ts around the hashing),
 * rather than through the library's retrieveAccount, which hashes inside its store mutation and
 * limits only accounts that exist: here a try counts the same whether the account exists or not.
 */
import { ConvexCredentials } from "@convex-dev/auth/providers/ConvexCredentials";
import { convexAuth, createAccount, modifyAccountCredentials } from "@convex-dev/auth/server";
import type { GenericActionCtxWithAuthConfig } from "@convex-dev/auth/server";
import type { RegisteredMutation } from "convex/server";
import { ConvexError, v, type Value } from "convex/values";
import { internal } from "./_generated/api";
import type { DataModel, Id } from "./_generated/dataModel";
import { internalMutation, type MutationCtx } from "./_generated/server";
import { LOCALES } from "./constants";
import { storeCallAllowed } from "./model/authGuard";
import { forgetSignedOutDevice } from "./model/sessions";
import { checkStoredImage } from "./model/files";
import {
  createUserForAccount,
  emailTaken,
  normalizeEmail,
  normalizeUsername,
  parseSignUp,
} from "./model/users";
import { fail } from "./model/errors";
import { UNMATCHABLE_HASH, hashPassword, needsRehash, verifyPassword } from "./model/passwords";
import { passwordRule } from "./rules/profile";
import { parseContact } from "./rules/accountCodes";

type Ctx = GenericActionCtxWithAuthConfig<DataModel>;
type Params = Partial<Record<string, Value | undefined>>;
type AuthRole = "customer" | "professional" | "admin";

function invalidCredentials(role: AuthRole): never {
  fail(
    "INVALID_CREDENTIALS",
    role === "admin" ? "Invalid username or password" : "Invalid email or password",
  );
}

/** The library reports credential failures as plain Errors; give them readable messages. */
function mapAuthError(error: unknown, role: AuthRole): never {
  if (error instanceof ConvexError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (message === "InvalidAccountId" || message === "InvalidSecret") invalidCredentials(role);
  if (message === "TooManyFailedAttempts")
    fail("TOO_MANY_ATTEMPTS", "Too many attempts, try again later");
  if (/already exists/.test(message)) throw emailTaken();
  console.error(`auth (${role}) failed:`, error);
  fail("AUTH_FAILED", "Sign-in failed, please try again.");
}

/** A customer's or professional's sign-in name: a mobile number's 10 digits, else the email. */
function signInName(typed: string): string {
  const contact = parseContact(typed);
  return contact?.kind === "phone" ? contact.value : normalizeEmail(typed);
}

async function signInFlow(role: AuthRole, params: Params, ctx: Ctx) {
  const rawId = role === "admin" ? params.username : params.email;
  const secret = params.password;
  if (
    typeof rawId !== "string" ||
    rawId.trim() === "" ||
    typeof secret !== "string" ||
    secret === ""
  ) {
    invalidCredentials(role);
  }
  const account = role === "admin" ? normalizeUsername(rawId) : signInName(rawId);
  const found = await ctx.runMutation(internal.signIns.start, { provider: role, account });
  // an unknown account is checked against a hash too: it answers as slowly as a wrong password
  if (!(await verifyPassword(secret, found?.hash ?? UNMATCHABLE_HASH)) || found === null) {
    invalidCredentials(role);
  }
  if (role === "admin" && found.role === role && !found.suspended)
    await secondFactor(ctx, found.userId, params.code);
  const rehash = needsRehash(found.hash)
    ? { accountId: found.accountId, from: found.hash, to: await hashPassword(secret) }
    : undefined;
  await ctx.runMutation(internal.signIns.succeeded, { account, rehash });
  if (found.role !== role) invalidCredentials(role);
  // told only to someone who knows the password
  if (found.suspended)
    fail("ACCOUNT_SUSPENDED", "This account is suspended. Please contact support.");
  return { userId: found.userId };
}

/**
 * An admin's second factor (twoFactor.ts), asked for only once the password is right. Until it
 * passes, the password's try stays counted.
 */
async function secondFactor(ctx: Ctx, userId: Id<"users">, code: Value | undefined) {
  const outcome = await ctx.runMutation(internal.twoFactor.check, {
    userId,
    code: typeof code === "string" ? code : undefined,
  });
  if (outcome === "required")
    fail(
      "TWO_FACTOR_REQUIRED",
      "Enter the 6-digit code from your authenticator app, or a recovery code.",
    );
  if (outcome === "wrong") fail("INVALID_CODE", "This code is wrong or was already used.");
  if (outcome === "limited")
    fail("TOO_MANY_ATTEMPTS", "Too many wrong codes; try again in 15 minutes.");
}

async function signUpFlow(role: "customer" | "professional", params: Params, ctx: Ctx) {
  const { password, profile, files } = parseSignUp(role, params);
  const draft = typeof params.draft === "string" ? params.draft : undefined;
  const draftId = await ctx.runMutation(internal.users.limitSignUps, {
    email: profile.email,
    draft,
  });
  if (await ctx.runQuery(internal.users.emailInUse, { email: profile.email })) throw emailTaken();
  // only the draft's own uploads are read (a file that is not an image is deleted) and attached
  await ctx.runQuery(internal.files.assertDraftUploads, { draftId, files });
  for (const file of files) await checkStoredImage(ctx, file.id, file.label);
  try {
    const { user } = await createAccount(ctx, {
      provider: role,
      account: { id: profile.email, secret: password },
      // our createOrUpdateUser reads it; auth passes it through untouched
      profile: { ...profile, draft } as never,
    });
    await ctx.runMutation(internal.signUpDrafts.spend, { draftId, userId: user._id });
    return { userId: user._id };
  } catch (error) {
    mapAuthError(error, role);
  }
}

/**
 * Forgot password, step 2 (step 1 is passwordReset:request): the code sent to `contact` and a new
 * password. Every session of the account ends; the caller is signed in afresh.
 */
async function resetFlow(role: "customer" | "professional", params: Params, ctx: Ctx) {
  const parsed = passwordRule.safeParse(params.newPassword);
  if (!parsed.success) fail("INVALID_INPUT", parsed.error.issues[0]?.message ?? "Invalid password");
  const { contact, code } = params;
  if (typeof contact !== "string" || typeof code !== "string") invalidCode();
  const account = await ctx.runMutation(internal.passwordReset.redeem, { role, contact, code });
  if (account === null) invalidCode();
  await modifyAccountCredentials(ctx, {
    provider: role,
    account: { id: account.accountId, secret: parsed.data },
  });
  const language = LOCALES.find((l) => l === params.language);
  await ctx.runMutation(internal.passwordReset.changed, { userId: account.userId, language });
  return { userId: account.userId };
}

/**
 * Sign in by SMS code, step 2 (step 1 is signInCodes:request): the verified mobile number and the
 * code sent there. Anything but the live code of that number's account of this role answers alike.
 */
async function codeFlow(role: "customer" | "professional", params: Params, ctx: Ctx) {
  const { phone, code } = params;
  if (typeof phone !== "string" || typeof code !== "string") invalidCode();
  const userId = await ctx.runMutation(internal.signInCodes.redeem, { role, phone, code });
  if (userId === null) invalidCode();
  return { userId };
}

/**
 * An admin's one-time setup link (adminSetup.ts; `npm run create-admin` prints it): its token and a
 * new password. The old authenticator and every session end; the caller is signed in afresh and the
 * admin panel asks for two-factor setup next.
 */
async function setupFlow(params: Params, ctx: Ctx) {
  const parsed = passwordRule.safeParse(params.newPassword);
  if (!parsed.success) fail("INVALID_INPUT", parsed.error.issues[0]?.message ?? "Invalid password");
  const { setupToken } = params;
  if (typeof setupToken !== "string") invalidSetupLink();
  const account = await ctx.runMutation(internal.adminSetup.redeem, { token: setupToken });
  if (account === null) invalidSetupLink();
  await modifyAccountCredentials(ctx, {
    provider: "admin",
    account: { id: account.accountId, secret: parsed.data },
  });
  await ctx.runMutation(internal.adminSetup.finish, { userId: account.userId });
  return { userId: account.userId };
}

function invalidSetupLink(): never {
  fail(
    "INVALID_SETUP_LINK",
    "This setup link is wrong, already used or expired. Ask whoever runs GharSewa's server for a new one (npm run create-admin).",
  );
}

function invalidCode(): never {
  fail(
    "INVALID_CODE",
    "This code is wrong or no longer valid. After 5 wrong tries, ask for a new code.",
  );
}

function rolePassword(role: AuthRole) {
  return ConvexCredentials<DataModel>({
    id: role,
    authorize: async (params, ctx) => {
      if (params.flow === "signIn") return await signInFlow(role, params, ctx);
      if (params.flow === "signUp") {
        if (role === "admin") {
          fail("SIGN_UP_REFUSED", "Admin accounts cannot be created by signing up.");
        }
        return await signUpFlow(role, params, ctx);
      }
      if (params.flow === "reset" && role !== "admin") return await resetFlow(role, params, ctx);
      if (params.flow === "code" && role !== "admin") return await codeFlow(role, params, ctx);
      if (params.flow === "setup" && role === "admin") return await setupFlow(params, ctx);
      fail("UNSUPPORTED_FLOW", 'Use flow "signIn", "signUp", "reset", "code" or "setup".');
    },
    crypto: {
      hashSecret: hashPassword,
      verifySecret: verifyPassword,
    },
  });
}

const library = convexAuth({
  providers: [rolePassword("customer"), rolePassword("professional"), rolePassword("admin")],
  callbacks: {
    async createOrUpdateUser(ctx, args) {
      // Credentials accounts reach here only when new; an existing account never re-creates its user.
      if (args.existingUserId !== null) return args.existingUserId as Id<"users">;
      return await createUserForAccount(
        ctx as unknown as MutationCtx,
        args.provider.id,
        args.profile,
      );
    },
  },
});

export const { auth, signIn, signOut, isAuthenticated } = library;

type StoreArgs =
  typeof library.store extends RegisteredMutation<"internal", infer Args, unknown> ? Args : never;
/**
 * The library's store handler. Convex keeps a registered function's handler on it as `_handler`
 * (left out of its public types; convex-helpers' CORS wrapper reads it the same way).
 */
const libraryStore = (
  library.store as unknown as { _handler: (ctx: MutationCtx, args: StoreArgs) => Promise<unknown> }
)._handler;

/**
 * auth's internal mutation (the library runs it as "auth:store"), behind a guard: @convex-dev/auth
 * 0.0.95 trusts ids a client sends to auth:signIn, and deletes a document of any table named in a
 * refresh token it cannot validate. model/authGuard.ts decides what may reach it; the rest answers
 * null, as an unknown token does.
 */
export const store = internalMutation({
  // The library does not export its validator for these arguments; only its own code builds them.
  args: { args: v.any() },
  handler: async (ctx, args: StoreArgs) => {
    if (!(await storeCallAllowed(ctx, args.args))) return null;
    const result = await libraryStore(ctx, args);
    // the library's sign-out ends the session and its refresh tokens; its device row goes with them
    if (args.args.type === "signOut") await forgetSignedOutDevice(ctx);
    return result;
  },
});
