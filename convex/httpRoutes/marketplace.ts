/**
 * The spec §7 marketplace endpoints, thin over the same model code as the app's functions.
 * Auth is `Authorization: Bearer <token>`; errors are JSON 4xx from httpRoutes/transport.ts.
 */
import type { HttpRouter } from "convex/server";
import { internal } from "../_generated/api";
import { addApiRoute, ApiError, json, jsonText, readJson } from "./transport";

/** Path segments after `prefix`, URL-decoded; a malformed escape is a 400, not a 500. */
function segments(request: Request, prefix: string): string[] {
  const rest = new URL(request.url).pathname.slice(prefix.length);
  try {
    return rest.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new ApiError("INVALID_PATH", "The path is not valid.");
  }
}

function numberField(body: Record<string, unknown>, name: string): number {
  const value = body[name];
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) {
    throw new ApiError("INVALID_INPUT", `The field "${name}" must be a number.`);
  }
  return n;
}

export function addMarketplaceRoutes(http: HttpRouter): void {
  // GET /api/services/category/{category} → {names}; GET /api/services/{category}/{serviceName}/{location} → {service}
  addApiRoute(
    http,
    { pathPrefix: "/api/services/" },
    {
      GET: async (ctx, request) => {
        const parts = segments(request, "/api/services/");
        if (parts.length === 2 && parts[0] === "category") {
          const names = await ctx.runQuery(internal.catalog.serviceNamesForApi, {
            category: parts[1],
          });
          return json(request, 200, { success: true, names });
        }
        if (parts.length === 3) {
          const [category, serviceName, location] = parts;
          const service = await ctx.runQuery(internal.catalog.serviceDetailsForApi, {
            category,
            serviceName,
            location,
          });
          if (service === null) {
            throw new ApiError(
              "NOT_FOUND",
              "Service may not be available for the selected location.",
            );
          }
          return json(request, 200, { success: true, service });
        }
        throw new ApiError(
          "NOT_FOUND",
          "Use /api/services/category/{category} or /api/services/{category}/{serviceName}/{location}.",
        );
      },
    },
  );

  addApiRoute(
    http,
    { path: "/api/current-locations" },
    {
      GET: async (ctx, request) => {
        const technicians = await ctx.runQuery(internal.locations.techniciansForApi, {});
        return jsonText(request, 200, `{"success":true,"Technicians":${technicians}}`);
      },
    },
  );

  addApiRoute(
    http,
    { path: "/api/current-location" },
    {
      POST: async (ctx, request) => {
        const body = await readJson(request);
        const userId = body.userId;
        if (typeof userId !== "string" || userId === "")
          throw new ApiError("INVALID_INPUT", 'The field "userId" is required.');
        const accuracy = body.accuracy === undefined ? undefined : numberField(body, "accuracy");
        await ctx.runMutation(internal.locations.updateForApi, {
          userId,
          longitude: numberField(body, "longitude"),
          latitude: numberField(body, "latitude"),
          accuracy,
        });
        return json(request, 200, { success: true });
      },
    },
  );

  // GET /api/bookings/{userId} → {technicianBooking}; PUT /api/bookings/{bookingId} {status}
  addApiRoute(
    http,
    { pathPrefix: "/api/bookings/" },
    {
      GET: async (ctx, request) => {
        const parts = segments(request, "/api/bookings/");
        if (parts.length !== 1) throw new ApiError("NOT_FOUND", "Use /api/bookings/{userId}.");
        const technicianBooking = await ctx.runQuery(internal.bookings.listForApi, {
          userId: parts[0],
        });
        return json(request, 200, { success: true, technicianBooking });
      },
      PUT: async (ctx, request) => {
        const parts = segments(request, "/api/bookings/");
        if (parts.length !== 1) throw new ApiError("NOT_FOUND", "Use /api/bookings/{bookingId}.");
        const body = await readJson(request);
        if (body.status !== "accepted" && body.status !== "rejected") {
          throw new ApiError(
            "INVALID_INPUT",
            'The field "status" must be "accepted" or "rejected".',
          );
        }
        await ctx.runMutation(internal.bookings.answerForApi, {
          bookingId: parts[0],
          status: body.status,
        });
        return json(request, 200, { success: true, status: body.status });
      },
    },
  );
}
