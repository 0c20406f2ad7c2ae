/**
 * The spec's account and technician endpoints (§7) for outside clients, thin over auth and the same
 * queries the app uses. Tokens are auth's JWTs: send them back as `Authorization: Bearer <token>`.
 */
import type { HttpRouter } from "convex/server";
import { api, internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx } from "../_generated/server";
import { assertImageBlob } from "../model/files";
import {
  ApiError,
  addApiRoute,
  apiSessionUser,
  json,
  readForm,
  readJson,
  requireApiUser,
  stringField,
} from "./transport";
import type { ViewerShape } from "../model/users";
import type { CitySlug } from "../validators";
import { DOCUMENT_KINDS } from "../rules/documents";

/** Four images of at most 5 MB each, plus the text fields. */
const MAX_REGISTER_BYTES = 21 * 1024 * 1024;

type Provider = "customer" | "professional" | "admin";

/** The spec's client-side user: `_id, name, role, userEmail, phoneNumber, profilePhoto.url`. */
function apiUser(user: ViewerShape) {
  return {
    _id: user._id,
    name: user.name,
    role: user.role,
    email: user.email,
    userEmail: user.email,
    phone: user.phone,
    phoneNumber: user.phone,
    address: user.address,
    zipCode: user.zipCode,
    profilePhoto: user.photoUrl === null ? null : { url: user.photoUrl },
  };
}

/** The user and session ids in auth's JWT `sub` claim ("<userId>|<sessionId>"). */
function tokenSubject(token: string): { userId: Id<"users">; sessionId: Id<"authSessions"> } {
  const payload = token.split(".")[1] ?? "";
  const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { sub: string };
  const [userId, sessionId] = claims.sub.split("|");
  return { userId: userId as Id<"users">, sessionId: sessionId as Id<"authSessions"> };
}

async function signIn(
  ctx: ActionCtx,
  provider: Provider,
  params: Record<string, string>,
): Promise<string> {
  const result = await ctx.runAction(api.auth.signIn, { provider, params });
  const token = result.tokens?.token;
  if (token === undefined) throw new ApiError("AUTH_FAILED", "Sign-in failed, please try again.");
  return token;
}

function login(provider: "customer" | "professional") {
  return async (ctx: ActionCtx, request: Request) => {
    const body = await readJson(request);
    const token = await signIn(ctx, provider, {
      flow: "signIn",
      email: stringField(body, "email"),
      password: stringField(body, "password"),
    });
    const user = await ctx.runQuery(internal.users.profileById, {
      userId: tokenSubject(token).userId,
    });
    if (user === null) throw new ApiError("AUTH_FAILED", "Sign-in failed, please try again.");
    return json(request, 200, {
      success: true,
      user: apiUser(user),
      message: "Logged in successfully.",
      token,
    });
  };
}

/** A form file field: checked (size, image header) before it is stored. */
async function storeImageField(
  ctx: ActionCtx,
  form: FormData,
  field: string,
  label: string,
  required: boolean,
) {
  const value = form.get(field);
  if (value === null || typeof value === "string") {
    if (required)
      throw new ApiError("INVALID_INPUT", `${label} image is required (form field "${field}").`);
    return undefined;
  }
  await assertImageBlob(value, label);
  return await ctx.storage.store(value);
}

function text(form: FormData, ...names: string[]): string {
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === "string") return value;
  }
  return "";
}

function register(provider: "customer" | "professional") {
  return async (ctx: ActionCtx, request: Request) => {
    const form = await readForm(request, MAX_REGISTER_BYTES);
    // the sign-up's draft (model/signUpDrafts.ts): its own with a solved stamp, else the shared allowance's
    const stamp = text(form, "stamp");
    const email = text(form, "email");
    const { draft } = await ctx.runMutation(
      internal.signUpDrafts.createForApi,
      stamp === "" ? { email } : { email, stamp },
    );
    const stored: Id<"_storage">[] = [];
    const keep = (id: Id<"_storage"> | undefined) => {
      if (id !== undefined) stored.push(id);
      return id;
    };
    try {
      const params: Record<string, string> = {
        flow: "signUp",
        draft,
        email,
        password: text(form, "password"),
        name: text(form, "fullname", "name"),
        phone: text(form, "phoneNumber", "phone"),
        address: text(form, "address"),
        zipCode: text(form, "zipCode"),
      };
      const photo = keep(
        (await storeImageField(ctx, form, "profile", "Profile photo", false)) ??
          (await storeImageField(ctx, form, "photo", "Profile photo", false)),
      );
      if (photo !== undefined) params.photo = photo;
      if (provider === "professional") {
        Object.assign(params, {
          specialty: text(form, "specialty"),
          city: text(form, "city"),
          state: text(form, "state"),
        });
        for (const { key, label } of DOCUMENT_KINDS) {
          params[key] = keep(await storeImageField(ctx, form, key, label, true))!;
        }
      }
      // the form's files are the draft's uploads, which its sign-up may attach (model/files.ts)
      await ctx.runMutation(internal.files.recordDraftFiles, { storageIds: stored, draft });
      const token = await signIn(ctx, provider, params);
      const { userId, sessionId } = tokenSubject(token);
      // Registering does not sign in (the spec's client logs in next): end the session sign-up opened.
      await ctx.runMutation(internal.users.endSession, { sessionId });
      const user = await ctx.runQuery(internal.users.profileById, { userId });
      return json(request, 201, {
        success: true,
        user: user === null ? null : apiUser(user),
        message: "Account created. Please log in.",
      });
    } catch (error) {
      // The client cannot reuse files it sent inline, so a failed registration leaves none behind.
      await ctx
        .runMutation(internal.files.discardUnattached, { storageIds: stored })
        .catch(() => undefined);
      throw error;
    }
  };
}

/** The spec's Technician: `_id, name, email, specialty, profilePhoto.url, location[], currentLocation.coordinates`. */
type TechnicianFields = {
  _id: Id<"professionals">;
  name: string;
  email?: string;
  specialty: string;
  specialtyName: string;
  city: string;
  photoUrl: string | null;
  locations?: { city: string; state: string; address: string; zipCode: string }[];
  verified: boolean;
  available: boolean;
  rating: { average: number; count: number };
};

function apiTechnician(t: TechnicianFields, position: { lat: number; lng: number } | undefined) {
  return {
    _id: t._id,
    name: t.name,
    ...(t.email !== undefined ? { email: t.email } : {}),
    specialty: t.specialty,
    specialtyName: t.specialtyName,
    city: t.city,
    profilePhoto: t.photoUrl === null ? null : { url: t.photoUrl },
    location: t.locations ?? [],
    currentLocation:
      position === undefined ? null : { type: "Point", coordinates: [position.lng, position.lat] },
    verified: t.verified,
    available: t.available,
    rating: t.rating,
  };
}

async function positions(ctx: ActionCtx, city?: CitySlug) {
  const markers = await ctx.runQuery(
    internal.locations.currentForApi,
    city === undefined ? {} : { city },
  );
  return new Map(markers.map((m) => [m.professionalId as string, { lat: m.lat, lng: m.lng }]));
}

export function addAccountRoutes(http: HttpRouter): void {
  addApiRoute(
    http,
    { path: "/api/admin/login" },
    {
      POST: async (ctx, request) => {
        const body = await readJson(request);
        // an admin with two-factor on sends the authenticator's (or a recovery) code too
        const code = typeof body.code === "string" ? body.code.slice(0, 64) : undefined;
        const token = await signIn(ctx, "admin", {
          flow: "signIn",
          username: stringField(body, "username"),
          password: stringField(body, "password"),
          ...(code === undefined ? {} : { code }),
        });
        return json(request, 200, { success: true, token, message: "Login successful" });
      },
    },
  );
  addApiRoute(http, { path: "/api/users/login" }, { POST: login("customer") });
  addApiRoute(http, { path: "/api/technicians/login" }, { POST: login("professional") });
  addApiRoute(http, { path: "/api/users/register" }, { POST: register("customer") });
  addApiRoute(http, { path: "/api/technicians/register" }, { POST: register("professional") });

  addApiRoute(
    http,
    { path: "/api/signout" },
    {
      POST: async (ctx, request) => {
        const { profile: viewer } = await apiSessionUser(ctx);
        await ctx.runAction(api.auth.signOut, {});
        return json(request, 200, {
          success: true,
          message: `${viewer.name} has been logged out successfully`,
        });
      },
    },
  );

  const adminList = async (ctx: ActionCtx, request: Request) => {
    await requireApiUser(ctx, "admin");
    const [rows, live] = await Promise.all([
      ctx.runQuery(internal.admin.techniciansForApi, {}),
      positions(ctx),
    ]);
    const technicians = rows.map((r) =>
      apiTechnician({ ...r, verified: r.verification.status === "verified" }, live.get(r._id)),
    );
    return json(request, 200, { success: true, technicians });
  };
  addApiRoute(http, { path: "/api/technicians" }, { GET: adminList });
  addApiRoute(http, { path: "/api/technicians/" }, { GET: adminList });

  addApiRoute(
    http,
    { path: "/api/technicians/search" },
    {
      GET: async (ctx, request) => {
        const url = new URL(request.url);
        const specialty = url.searchParams.get("specialty")?.trim() ?? "";
        const city = url.searchParams.get("city")?.trim() ?? "";
        if (specialty === "" || city === "") {
          throw new ApiError("INVALID_INPUT", "Give both ?specialty= and ?city=.");
        }
        const found = await ctx.runQuery(internal.professionals.searchForApi, { specialty, city });
        const live = found.length === 0 ? new Map() : await positions(ctx, found[0].city);
        const technicians = found.map((t) => apiTechnician(t, live.get(t._id)));
        return json(request, 200, { success: true, technicians });
      },
    },
  );
}
