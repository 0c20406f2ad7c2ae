// `convex/auth.config.ts` as Convex reads it (crates/common/src/auth.rs, crates/authentication,
// crates/keybroker UserIdentity): OIDC providers (`domain` + `applicationID`, keys found through the
// issuer's discovery document) and `type: "customJwt"` providers (`issuer`, `jwks`, `algorithm`,
// optional `applicationID`), with Convex's checks, identity fields and error texts.
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from "jose";
import type { Identity } from "./engine/engine.ts";
import { fetchBounded, type BoundedAnswer } from "./outbound-fetch.ts";

export type AuthProvider =
  | { type: "oidc"; domain: string; applicationID: string }
  | {
      type: "customJwt";
      issuer: string;
      jwks: string;
      algorithm: "RS256" | "ES256";
      applicationID?: string;
    };

/** A token Convex refuses: `code` as its 401 answers name it (`InvalidAuthHeader`, `NoAuthProvider`, …). */
export class AuthError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A provider entry Convex would refuse at push time. */
export class InvalidAuthConfig extends Error {}

/** A provider's URL as Convex stores it: `https://` added when no scheme is given. */
function issuerUrl(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "")
    throw new InvalidAuthConfig(`auth.config.ts: a provider's \`${field}\` must be a URL`);
  const url = /^\w+:\/\//.test(value) ? value : `https://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new InvalidAuthConfig(
      `Invalid provider domain URL "${value}": ${(error as Error).message}`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new InvalidAuthConfig(
      `Invalid provider domain URL "${value}": scheme should be http or https`,
    );
  return url;
}

/** The providers of an `auth.config.ts` default export (none: no token is accepted). */
export function parseAuthConfig(config: unknown): AuthProvider[] {
  if (config === undefined) return [];
  const providers = (config as { providers?: unknown }).providers;
  if (!Array.isArray(providers))
    throw new InvalidAuthConfig("auth.config.ts: the default export must have `providers: [...]`");
  return providers.map((entry: Record<string, unknown>) => {
    if (entry.type === "customJwt") {
      if (entry.algorithm !== "RS256" && entry.algorithm !== "ES256")
        throw new InvalidAuthConfig(
          `Invalid signature algorithm (only RS256 and ES256 are supported): ${JSON.stringify(entry.algorithm)}`,
        );
      if (typeof entry.jwks !== "string")
        throw new InvalidAuthConfig("auth.config.ts: a customJwt provider needs `jwks` (a URL)");
      if (entry.applicationID !== undefined && typeof entry.applicationID !== "string")
        throw new InvalidAuthConfig("auth.config.ts: `applicationID` must be a string");
      return {
        type: "customJwt",
        issuer: issuerUrl(entry.issuer, "issuer"),
        jwks: entry.jwks,
        algorithm: entry.algorithm,
        applicationID: entry.applicationID,
      };
    }
    if (typeof entry.applicationID !== "string")
      throw new InvalidAuthConfig("auth.config.ts: an OIDC provider needs `applicationID`");
    return {
      type: "oidc",
      domain: issuerUrl(entry.domain, "domain"),
      applicationID: entry.applicationID,
    };
  });
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");
const withProtocol = (s: string) => (/^https?:\/\//.test(s) ? s : `https://${s}`);

function matches(provider: AuthProvider, audiences: string[], issuer: string): boolean {
  const applicationID = provider.applicationID;
  if (applicationID !== undefined && !audiences.includes(applicationID)) return false;
  const domain = provider.type === "oidc" ? provider.domain : provider.issuer;
  return trimSlash(domain) === trimSlash(withProtocol(issuer));
}

function noProviderMessage(providers: AuthProvider[]): string {
  if (providers.length === 0)
    return "No auth provider found matching the given token (no providers configured). Check convex/auth.config.ts.";
  const listed = providers.map((p) =>
    p.type === "oidc"
      ? `OIDC(domain=${p.domain}, app_id=${p.applicationID})`
      : `CustomJWT(issuer=${p.issuer}, app_id=${p.applicationID ?? "none"})`,
  );
  return `No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: [${listed.join(", ")}]`;
}

// Standard OIDC claims become the identity's typed fields (UserIdentity's names).
const OIDC_FIELDS: Record<string, string> = {
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  website: "websiteUrl",
  email: "email",
  email_verified: "emailVerified",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
  phone_number_verified: "phoneNumberVerified",
  address: "address",
  updated_at: "updatedAt",
};
// ID token claims that are not the user's, and claims Convex drops because they change on every refresh.
const OIDC_NOT_CLAIMS = new Set([
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "acr",
  "amr",
  "azp",
  "at_hash",
  "c_hash",
  "jti",
  "nbf",
  "fva",
]);
const JWT_REGISTERED = new Set(["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "fva"]);

function baseIdentity(issuer: string, subject: string): Identity {
  return { tokenIdentifier: `${issuer}|${subject}`, subject, issuer };
}

function oidcIdentity(payload: JWTPayload): Identity {
  const identity = baseIdentity(payload.iss!, payload.sub!);
  for (const [claim, value] of Object.entries(payload)) {
    if (OIDC_NOT_CLAIMS.has(claim) || value === null || value === undefined) continue;
    const field = OIDC_FIELDS[claim];
    if (field === undefined) identity[claim] = value;
    else if (claim === "address") {
      const formatted = (value as { formatted?: unknown }).formatted;
      if (typeof formatted === "string") identity.address = formatted;
    } else if (claim === "updated_at") {
      if (typeof value === "number")
        identity.updatedAt = new Date(value * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
    } else identity[field] = value;
  }
  return identity;
}

/** A custom JWT's claims: nested objects flattened with dots (`properties.id`), as Convex does. */
function customJwtIdentity(payload: JWTPayload): Identity {
  const identity = baseIdentity(payload.iss!, payload.sub!);
  const flatten = (object: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(object)) {
      if (!prefix && JWT_REGISTERED.has(key)) continue;
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        flatten(value as Record<string, unknown>, `${prefix}${key}.`);
      else identity[`${prefix}${key}`] = value;
    }
  };
  flatten(payload, "");
  return identity;
}

/** Why a custom JWT's times refuse it at `nowMs`, or null: within 5 seconds of the limits pass, as Convex allows. */
function temporalRefusal(payload: JWTPayload, nowMs: number): string | null {
  const now = nowMs / 1000;
  return typeof payload.exp === "number" && payload.exp < now - 5
    ? "Token expired"
    : typeof payload.nbf === "number" && payload.nbf > now + 5
      ? "Token not yet valid (nbf)"
      : typeof payload.iat === "number" && payload.iat > now + 5
        ? "Token issued in the future (iat)"
        : null;
}

const JWKS_MEDIA_TYPES = ["application/json", "application/jwk-set+json"];
/** How long fetched discovery documents and key sets are used; an unknown `kid` refetches sooner. */
const KEYS_TTL_MS = 10 * 60 * 1000;
const REFETCH_AFTER_MS = 30 * 1000;

interface CachedKeys {
  keys: JSONWebKeySet;
  fetchedAt: number;
}

/** Tokens remembered as verified; the oldest is forgotten first. */
const MAX_VERIFIED = 1_000;

/** A token that verified: what a repeat of it is answered from while nothing it was checked against changed. */
interface VerifiedToken {
  identity: Identity;
  /** The providers it was verified under (a new generation of modules re-reads them). */
  providers: AuthProvider[];
  /** The cached key set that checked it (its `cache` key); null for the deployment's own keys. */
  keys: { cacheKey: string; entry: CachedKeys } | null;
  /** Whether its time claims still pass, checked as its provider's verification checks them. */
  timely(): boolean;
}

export interface AuthConfigVerifierOptions {
  /** The deployment's providers (re-read when the app's modules change). */
  providers(): Promise<AuthProvider[]>;
  /** This deployment's site URL and its own key set: an OIDC provider on it needs no HTTP round trip. */
  siteUrl(): string;
  ownJwks: string;
}

/**
 * Verifies a user's token as Convex does: the first provider whose issuer (and applicationID, when
 * set) the token names is the one that checks it.
 */
export class AuthConfigVerifier {
  private readonly cache = new Map<string, CachedKeys>();
  private readonly pending = new Map<string, Promise<CachedKeys>>();
  private readonly ownKeys: JSONWebKeySet;
  private readonly now = Date.now;

  constructor(private readonly options: AuthConfigVerifierOptions) {
    this.ownKeys = JSON.parse(options.ownJwks) as JSONWebKeySet;
  }

  private readonly verified = new Map<string, VerifiedToken>();

  /**
   * The identity `token` carries, or an AuthError saying why it is refused. A token verified before is
   * answered without its signature check (the expensive part) while its providers and key set are the
   * same and its time claims still pass; anything else is verified again, so refusals read as before.
   */
  verify = async (token: string): Promise<Identity> => {
    const known = this.verified.get(token);
    if (known !== undefined) {
      const providers = await this.options.providers();
      const keys = known.keys;
      if (
        known.providers === providers &&
        (keys === null ||
          (this.cache.get(keys.cacheKey) === keys.entry &&
            this.now() - keys.entry.fetchedAt < KEYS_TTL_MS)) &&
        known.timely()
      )
        // A copy: whoever receives it may change it.
        return structuredClone(known.identity);
      this.verified.delete(token);
    }
    const { identity, ...checked } = await this.verifyAgain(token);
    if (this.verified.size >= MAX_VERIFIED)
      this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, { identity: structuredClone(identity), ...checked });
    return identity;
  };

  private async verifyAgain(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      payload = decodeJwt(token);
    } catch {
      throw new AuthError(
        "InvalidAuthHeader",
        "Could not parse JWT payload. Check that the token is a valid JWT format with three base64-encoded parts separated by dots.",
      );
    }
    if (typeof payload.iss !== "string")
      throw new AuthError(
        "InvalidAuthHeader",
        "Missing issuer claim ('iss') in JWT payload. The JWT must include an 'iss' claim that matches one of your configured auth providers.",
      );
    const audiences =
      typeof payload.aud === "string"
        ? [payload.aud]
        : Array.isArray(payload.aud)
          ? payload.aud
          : [];
    const providers = await this.options.providers();
    const provider = providers.find((p) => matches(p, audiences, payload.iss!));
    if (!provider) throw new AuthError("NoAuthProvider", noProviderMessage(providers));
    const checked =
      provider.type === "oidc"
        ? await this.verifyOidc(token, payload.iss, provider)
        : await this.verifyCustomJwt(token, provider);
    return { ...checked, providers };
  }

  private async verifyOidc(
    token: string,
    issuer: string,
    provider: Extract<AuthProvider, { type: "oidc" }>,
  ): Promise<Omit<VerifiedToken, "providers">> {
    const own = trimSlash(issuer) === trimSlash(this.options.siteUrl());
    const load = own ? null : () => this.discover(issuer);
    let keys: CachedKeys;
    if (!load) keys = { keys: this.ownKeys, fetchedAt: this.now() };
    else {
      try {
        keys = await this.keysOf(`oidc:${issuer}`, load);
      } catch (error) {
        if (error instanceof AuthError) throw error;
        throw new AuthError(
          "AuthProviderDiscoveryFailed",
          `Auth provider discovery of ${issuer} failed`,
        );
      }
    }
    const verify = (set: JSONWebKeySet) =>
      jwtVerify(token, createLocalJWKSet(set), {
        algorithms: ["RS256", "EdDSA"],
        issuer,
        audience: provider.applicationID,
        requiredClaims: ["sub", "exp", "iat"],
        currentDate: new Date(this.now()),
      });
    try {
      const { payload } = await this.withRefetch(`oidc:${issuer}`, keys, load, verify);
      // Convex's OIDC verifier takes a token for one audience only.
      if (Array.isArray(payload.aud) && payload.aud.length > 1) throw new Error("audiences");
      const { exp, nbf } = payload;
      return {
        identity: oidcIdentity(payload),
        keys: load ? this.keysNow(`oidc:${issuer}`) : null,
        // jose's checks (no clock tolerance), against the second jwtVerify reads the clock as
        timely: () => {
          const now = Math.floor(this.now() / 1000);
          return (exp === undefined || exp > now) && (nbf === undefined || nbf <= now);
        },
      };
    } catch {
      throw new AuthError(
        "Unauthenticated",
        "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.",
      );
    }
  }

  private async verifyCustomJwt(
    token: string,
    provider: Extract<AuthProvider, { type: "customJwt" }>,
  ): Promise<Omit<VerifiedToken, "providers">> {
    const load = () => this.fetchJwks(provider.jwks);
    const keys = await this.keysOf(`jwks:${provider.jwks}`, load);
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      // Reported below as a token that does not decode.
    }
    const decode = (set: JSONWebKeySet) =>
      jwtVerify(token, createLocalJWKSet(set), {
        algorithms: [provider.algorithm],
        // Times are checked below, in Convex's order and with its texts.
        clockTolerance: Number.MAX_SAFE_INTEGER,
      });
    let payload: JWTPayload;
    try {
      ({ payload } = await this.withRefetch(`jwks:${provider.jwks}`, keys, load, decode));
    } catch {
      throw new AuthError(
        "InvalidAuthHeader",
        kid === undefined
          ? "Could not decode token. JWT may be missing a 'kid' (key ID) header."
          : `Could not decode token. The JWT's 'kid' (key ID) header is '${kid}', does this key match any key in the provider's JWKS?`,
      );
    }
    if (typeof payload.iss !== "string")
      throw new AuthError(
        "InvalidAuthHeader",
        "Missing issuer claim ('iss') in JWT payload. The JWT must include an 'iss' claim that matches one of your configured auth providers.",
      );
    if (trimSlash(withProtocol(payload.iss)) !== trimSlash(provider.issuer))
      throw new AuthError(
        "InvalidAuthHeader",
        `Invalid issuer: ${payload.iss} != ${provider.issuer}`,
      );
    if (provider.applicationID !== undefined) {
      const audiences =
        typeof payload.aud === "string" ? [payload.aud] : (payload.aud as string[] | undefined);
      if (audiences === undefined)
        throw new AuthError(
          "InvalidAuthHeader",
          "Missing audience claim ('aud') in JWT payload. The JWT must include an 'aud' claim that matches your configured application ID.",
        );
      if (!audiences.includes(provider.applicationID))
        throw new AuthError(
          "InvalidAuthHeader",
          `Invalid audience: ${provider.applicationID} not in ${JSON.stringify(audiences).replace(/,/g, ", ")}`,
        );
    }
    const temporal = temporalRefusal(payload, this.now());
    if (temporal) throw new AuthError("InvalidAuthHeader", `Could not validate token: ${temporal}`);
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number")
      throw new AuthError(
        "InvalidAuthHeader",
        "Could not verify token claim. Check that the JWT contains valid claims and matches your auth provider configuration.",
      );
    return {
      identity: customJwtIdentity(payload),
      keys: this.keysNow(`jwks:${provider.jwks}`),
      timely: () => temporalRefusal(payload, this.now()) === null,
    };
  }

  /** The key set cached under `cacheKey` now, to tell later whether it was replaced. */
  private keysNow(cacheKey: string): VerifiedToken["keys"] {
    // None cached (cannot happen after a verification with them): one that is never current.
    return {
      cacheKey,
      entry: this.cache.get(cacheKey) ?? { keys: { keys: [] }, fetchedAt: -Infinity },
    };
  }

  /** Runs `use` with the cached keys; when they have no key for the token, loads them once more. */
  private async withRefetch<T>(
    cacheKey: string,
    keys: CachedKeys,
    load: (() => Promise<JSONWebKeySet>) | null,
    use: (keys: JSONWebKeySet) => Promise<T>,
  ): Promise<T> {
    try {
      return await use(keys.keys);
    } catch (error) {
      const stale = this.now() - keys.fetchedAt > REFETCH_AFTER_MS;
      if (!load || !stale || !(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      this.cache.delete(cacheKey);
      return await use((await this.keysOf(cacheKey, load)).keys);
    }
  }

  /** Keys from the cache while fresh; concurrent callers share one fetch. */
  private keysOf(cacheKey: string, load: () => Promise<JSONWebKeySet>): Promise<CachedKeys> {
    const cached = this.cache.get(cacheKey);
    if (cached && this.now() - cached.fetchedAt < KEYS_TTL_MS) return Promise.resolve(cached);
    let pending = this.pending.get(cacheKey);
    if (!pending) {
      pending = load()
        .then((keys) => {
          const entry = { keys, fetchedAt: this.now() };
          this.cache.set(cacheKey, entry);
          return entry;
        })
        .finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, pending);
    }
    return pending;
  }

  /** OpenID Connect discovery: the issuer's configuration, whose `issuer` must be the token's, then its JWKS. */
  private async discover(issuer: string): Promise<JSONWebKeySet> {
    const url = `${issuer}${issuer.endsWith("/") ? "" : "/"}.well-known/openid-configuration`;
    let res: BoundedAnswer;
    try {
      res = await fetchBounded(url);
    } catch (error) {
      throw new AuthError(
        "AuthProviderDiscoveryFailed",
        `Auth provider discovery of ${issuer} failed: ${(error as Error).message}`,
      );
    }
    if (res.status !== 200)
      throw new AuthError(
        "AuthProviderDiscoveryFailed",
        `Auth provider discovery of ${issuer} failed: ${res.status} ${res.text.slice(0, 1000)}`,
      );
    const metadata = JSON.parse(res.text) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== "string")
      throw new Error("discovery document does not name this issuer");
    const keys = await fetchBounded(metadata.jwks_uri);
    if (keys.status !== 200) throw new Error(`JWKS ${keys.status}`);
    return JSON.parse(keys.text) as JSONWebKeySet;
  }

  private async fetchJwks(uri: string): Promise<JSONWebKeySet> {
    let body: string;
    if (uri.startsWith("data:")) {
      const comma = uri.indexOf(",");
      const meta = uri.slice(5, comma);
      const data = uri.slice(comma + 1);
      if (comma < 0)
        throw new AuthError(
          "InvalidAuthHeader",
          "Invalid JWKS data URL. Check that the data URL is properly formatted and contains valid base64-encoded JSON.",
        );
      body = meta.endsWith(";base64")
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeURIComponent(data);
    } else {
      let res: BoundedAnswer;
      try {
        res = await fetchBounded(uri);
      } catch (error) {
        throw new AuthError(
          "InvalidAuthHeader",
          `Could not fetch JWKS from URL '${uri}': ${(error as Error).message}. Check that the URL is correct and accessible.`,
        );
      }
      if (res.status !== 200)
        throw new AuthError(
          "InvalidAuthHeader",
          `Could not fetch JWKS from URL '${uri}': HTTP ${res.status} ${res.statusText || "Unknown"}. Check that the URL is correct and accessible.`,
        );
      const contentType = res.headers.get("content-type");
      const [essence, ...params] = (contentType ?? "").split(";").map((s) => s.trim());
      const charset = params.find((p) => p.toLowerCase().startsWith("charset="));
      if (
        !JWKS_MEDIA_TYPES.includes(essence.toLowerCase()) ||
        (charset !== undefined && charset.slice("charset=".length) !== "utf-8")
      )
        throw new AuthError(
          "InvalidAuthHeader",
          `Invalid Content-Type '${contentType ?? "unknown"}' when fetching JWKS from '${uri}'. Expected 'application/json' or 'application/jwk-set+json'.`,
        );
      body = res.text;
    }
    try {
      const keys = JSON.parse(body) as JSONWebKeySet;
      if (!Array.isArray(keys.keys)) throw new Error("no keys");
      return keys;
    } catch {
      throw new AuthError(
        "InvalidAuthHeader",
        `Invalid JWKS response body from '${uri}'. The response is not valid JSON or doesn't match the expected JWKS format.`,
      );
    }
  }
}
