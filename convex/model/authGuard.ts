/**
 * Which calls of @convex-dev/auth's internal `store` mutation may reach the library (see `store` in
 * auth.ts). The library (0.0.95) trusts the ids and identifiers a client hands to `auth:signIn`:
 *
 * - refreshSession: for a refresh token "<a>|<b>" it cannot validate it deletes whatever document `b`
 *   is, in any table. Only a token whose first half is an issued refresh token of session `b` goes on.
 * - verifyCodeAndSignIn (`params.code`): the library's own verification codes. No provider here
 *   issues them: the one-time codes of forgot password and of sign-in by SMS are the app's
 *   (model/accountCodes.ts), checked by the role providers' `authorize` per account. The library finds a code by its hash alone and
 *   counts a failure against the client's `params.email`, which could be an account id and so lock
 *   that account's password sign-in. Refused outright.
 * - signOut and verifierSignature act on a session or verifier id: only ids of those tables go on.
 *
 * A refused call answers null, as the library does for an unknown refresh token or code.
 */
import { getAuthSessionId } from "@convex-dev/auth/server";
import type { MutationCtx } from "../_generated/server";

/** A `store` call as the library makes it: `{ type, ...fields of that type }`. */
export type StoreCall = { type?: unknown; refreshToken?: unknown; verifier?: unknown };

/** "<refresh token id>|<session id>", as @convex-dev/auth formats refresh tokens. */
const REFRESH_TOKEN_DIVIDER = "|";

/** True when `refreshToken` names an existing refresh token of the session it names. */
async function isIssuedRefreshToken(ctx: MutationCtx, refreshToken: string): Promise<boolean> {
  const parts = refreshToken.split(REFRESH_TOKEN_DIVIDER);
  if (parts.length !== 2) return false;
  const tokenId = ctx.db.normalizeId("authRefreshTokens", parts[0]);
  const sessionId = ctx.db.normalizeId("authSessions", parts[1]);
  if (tokenId === null || sessionId === null) return false;
  const token = await ctx.db.get("authRefreshTokens", tokenId);
  return token !== null && token.sessionId === sessionId;
}

export async function storeCallAllowed(ctx: MutationCtx, call: StoreCall): Promise<boolean> {
  switch (call.type) {
    case "refreshSession":
      return (
        typeof call.refreshToken === "string" &&
        (await isIssuedRefreshToken(ctx, call.refreshToken))
      );
    case "verifyCodeAndSignIn":
      return false;
    case "signOut": {
      const sessionId = await getAuthSessionId(ctx);
      return sessionId === null || ctx.db.normalizeId("authSessions", sessionId) !== null;
    }
    case "verifierSignature":
      return (
        typeof call.verifier === "string" &&
        ctx.db.normalizeId("authVerifiers", call.verifier) !== null
      );
    default:
      return true;
  }
}
