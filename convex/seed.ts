/**
 * `seed:init({demo})` — run by `npm start` and `npm run seed:demo`; idempotent.
 * Catalogue and settings defaults always; the first admin on a database without one; receipts for
 * paid bookings made before receipts existed (receipts:backfill);
 * with `demo: true` on a database without customers, the demo marketplace of model/demoData.ts.
 */
import { streetOnly } from "./rules/address";
import { createAccount } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import {
  internalAction,
  internalMutation,
  internalQuery,
  type ActionCtx,
  type MutationCtx,
} from "./_generated/server";
import { CITIES, type CitySlug } from "./validators";
import * as Bookings from "./model/bookings";
import { professionalOfUser } from "./model/professionalOfUser";
import { specialtyCategory, upsertCatalog } from "./model/catalog";
import {
  DEMO_CUSTOMERS,
  DEMO_PASSWORD,
  DEMO_PROFESSIONALS,
  DEMO_PROFESSIONALS_KEY,
  demoHome,
  solidPng,
  STATE_OF_CITY,
} from "./model/demoData";
import * as Locations from "./model/locations";
import * as Presence from "./model/presence";
import { refreshMarker } from "./model/mapMarkers";
import { updateProfessional } from "./model/professionalUpdate";
import * as Reviews from "./model/reviews";
import { DEFAULT_SETTINGS } from "./model/settings";

export const init = internalAction({
  args: { demo: v.optional(v.boolean()) },
  returns: v.object({
    catalogRowsInserted: v.number(),
    adminCreated: v.union(v.string(), v.null()),
    adminSetupToken: v.union(v.string(), v.null()),
    demoCreated: v.boolean(),
  }),
  handler: async (
    ctx,
    { demo = false },
  ): Promise<{
    catalogRowsInserted: number;
    adminCreated: string | null;
    adminSetupToken: string | null;
    demoCreated: boolean;
  }> => {
    const { inserted }: { inserted: number } = await ctx.runMutation(
      internal.seed.catalogAndSettings,
      {},
    );
    const admin: { username: string; setupToken: string } | null = await ctx.runAction(
      internal.admin.ensureFirstAdmin,
      {},
    );
    // bookings paid before receipts existed get theirs (idempotent: nothing new on a second run)
    await ctx.runMutation(internal.receipts.backfill, { cursor: null });
    let demoCreated = false;
    if (demo && !(await ctx.runQuery(internal.seed.hasCustomers, {}))) {
      await createDemoAccounts(ctx);
      await ctx.runMutation(internal.seed.demoMarketplace, {});
      demoCreated = true;
    }
    return {
      catalogRowsInserted: inserted,
      adminCreated: admin?.username ?? null,
      adminSetupToken: admin?.setupToken ?? null,
      demoCreated,
    };
  },
});

export const catalogAndSettings = internalMutation({
  args: {},
  returns: v.object({ inserted: v.number() }),
  handler: async (ctx) => {
    const result = await upsertCatalog(ctx);
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      const row = await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", key))
        .unique();
      if (row === null) await ctx.db.insert("settings", { key, value });
    }
    return result;
  },
});

export const hasCustomers = internalQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) =>
    (await ctx.db
      .query("users")
      .withIndex("by_role", (q) => q.eq("role", "customer"))
      .first()) !== null,
});

/**
 * Real password accounts (so the documented demo logins work), photos and documents as generated PNGs,
 * recorded as the deployment's own uploads (an account attaches only files it may: model/files.ts).
 */
async function createDemoAccounts(ctx: ActionCtx) {
  const png = async (rgb: [number, number, number]) => {
    const storageId = await ctx.storage.store(
      new Blob([solidPng(rgb) as BlobPart], { type: "image/png" }),
    );
    await ctx.runMutation(internal.files.recordDeploymentFiles, { storageIds: [storageId] });
    return storageId;
  };
  for (const [i, c] of DEMO_CUSTOMERS.entries()) {
    await createAccount(ctx, {
      provider: "customer",
      account: { id: c.email, secret: DEMO_PASSWORD },
      profile: { ...c, photo: await png([220, 90 + i * 40, 60]) } as never, // read by createOrUpdateUser in auth.ts
    });
  }
  for (const [i, p] of DEMO_PROFESSIONALS.entries()) {
    const { specialty, city, ...person } = p;
    const professional = {
      specialty,
      city,
      state: STATE_OF_CITY[city],
      citizenshipFront: await png([200, 200, 190]),
      citizenshipBack: await png([190, 190, 200]),
      trainingCertificate: await png([240, 230, 200]),
    };
    await createAccount(ctx, {
      provider: "professional",
      account: { id: p.email, secret: DEMO_PASSWORD },
      profile: {
        ...person,
        photo: await png([40 + i * 10, 110, 200 - i * 8]),
        professional,
      } as never,
    });
  }
}

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const DAY = 24 * HOUR;

type Scenario = {
  customer: number;
  professional: string;
  end:
    | "requested"
    | "accepted"
    | "en_route"
    | "arrived"
    | "in_progress"
    | "completed"
    | "reviewed"
    | "cancelled"
    | "rejected";
  review?: { rating: number; comment?: string };
  reason?: string;
};

const SCENARIOS: Scenario[] = [
  {
    customer: 0,
    professional: "professional@demo.np",
    end: "reviewed",
    review: { rating: 5, comment: "Neat wiring and on time. Cleaned up after the job too." },
  },
  { customer: 0, professional: "professional@demo.np", end: "accepted" },
  { customer: 0, professional: "professional@demo.np", end: "requested" },
  {
    customer: 1,
    professional: "professional@demo.np",
    end: "reviewed",
    review: { rating: 4, comment: "Fixed the inverter changeover quickly." },
  },
  { customer: 0, professional: "plumber.nepalgunj@demo.np", end: "in_progress" },
  {
    customer: 0,
    professional: "ac-fridge.nepalgunj@demo.np",
    end: "reviewed",
    review: { rating: 4, comment: "AC cools well again before the summer." },
  },
  { customer: 1, professional: "plumber.kathmandu@demo.np", end: "en_route" },
  { customer: 1, professional: "electrician.kathmandu@demo.np", end: "completed" },
  {
    customer: 1,
    professional: "cctv.kathmandu@demo.np",
    end: "reviewed",
    review: { rating: 5, comment: "Four cameras set up and mobile viewing works." },
  },
  {
    customer: 2,
    professional: "painter.pokhara@demo.np",
    end: "reviewed",
    review: { rating: 5, comment: "Beautiful finish on the living room." },
  },
  {
    customer: 2,
    professional: "carpenter.pokhara@demo.np",
    end: "cancelled",
    reason: "My brother-in-law fixed the door.",
  },
  {
    customer: 2,
    professional: "water-purifier.pokhara@demo.np",
    end: "rejected",
    reason: "Fully booked during Tihar.",
  },
  {
    customer: 0,
    professional: "home-appliance.surkhet@demo.np",
    end: "reviewed",
    review: { rating: 5 },
  },
  {
    customer: 2,
    professional: "mason.dhangadi@demo.np",
    end: "reviewed",
    review: { rating: 3, comment: "Good work but came a day late." },
  },
  {
    customer: 2,
    professional: "solar.dhangadi@demo.np",
    end: "reviewed",
    review: { rating: 5, comment: "Solar heater works perfectly." },
  },
];

const PATH: Scenario["end"][] = ["accepted", "en_route", "arrived", "in_progress", "completed"];

async function userByEmail(ctx: MutationCtx, email: string): Promise<Doc<"users">> {
  const user = await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", email))
    .unique();
  if (user === null) throw new Error(`Demo account ${email} is missing.`);
  return user;
}

/**
 * Verifies the demo accounts' phone numbers (as their SMS codes would) and the demo professionals,
 * puts them on the map and plays the booking scenarios through the model.
 */
export const demoMarketplace = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const now = Date.now();
    const pros = new Map<string, Doc<"professionals">>();
    for (const [i, p] of DEMO_PROFESSIONALS.entries()) {
      const user = await userByEmail(ctx, p.email);
      // admins verify only professionals whose phone is verified (model/professionals.ts verify)
      await ctx.db.patch("users", user._id, { phoneVerificationTime: now });
      const pro = await professionalOfUser(ctx, user._id);
      if (pro === null) throw new Error(`Demo professional ${p.email} has no profile.`);
      await updateProfessional(ctx, pro, {
        verification: { status: "verified", at: now, note: "Demo account" },
        available: true,
      });
      await refreshMarker(ctx, pro._id);
      pros.set(p.email, pro);
      const home = demoHome(
        i,
        CITIES.find((c) => c.slug === p.city)!,
      );
      await simulateDevice(ctx, pro, home, now);
    }
    await ctx.db.insert("settings", {
      key: DEMO_PROFESSIONALS_KEY,
      value: JSON.stringify([...pros.values()].map((p) => p._id)),
    });

    const customers = await Promise.all(DEMO_CUSTOMERS.map((c) => userByEmail(ctx, c.email)));
    for (const customer of customers)
      await ctx.db.patch("users", customer._id, { phoneVerificationTime: now });
    for (const [i, s] of SCENARIOS.entries()) {
      const pro = pros.get(s.professional)!;
      const customer = customers[s.customer];
      const services = await ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) =>
          q.eq("category", specialtyCategory(pro.specialty)),
        )
        .take(1 + (i % 2));
      const bookingId = await Bookings.create(ctx, customer, {
        professionalId: pro._id,
        serviceIds: services.map((x) => x._id),
        // the street only: the booking's city is the professional's (rules/address.ts)
        address: streetOnly(DEMO_CUSTOMERS[s.customer].address),
        city: pro.city,
        // nine hours apart: no demo job of one professional (at most 8 h) overlaps the next (rules/schedule.ts)
        scheduledFor: now + (i + 2) * 9 * HOUR,
        note: i % 3 === 0 ? "Please call before coming." : undefined,
      });
      const proUser = (await ctx.db.get("users", pro.userId))!;
      const as = (actor: "customer" | "professional") => ({
        actor,
        actorUser: actor === "customer" ? customer : proUser,
      });
      if (s.end === "cancelled") {
        await Bookings.transition(ctx, { bookingId, to: "accepted", ...as("professional") });
        await Bookings.transition(ctx, {
          bookingId,
          to: "cancelled",
          reason: s.reason,
          ...as("customer"),
        });
      } else if (s.end === "rejected") {
        await Bookings.transition(ctx, {
          bookingId,
          to: "rejected",
          reason: s.reason,
          ...as("professional"),
        });
      } else if (s.end !== "requested") {
        const last = s.end === "reviewed" ? "completed" : s.end;
        for (const to of PATH.slice(0, PATH.indexOf(last) + 1)) {
          // a job under way was booked for about now: steps open an hour before the booked time
          if (to === "en_route")
            await ctx.db.patch("bookings", bookingId, { scheduledFor: now + 30 * MINUTE });
          await Bookings.transition(ctx, {
            bookingId,
            to,
            ...as("professional"),
            confirmClash: true,
            // the demo's customers read their start codes out (rules/startCode.ts)
            startChecked: true,
          });
        }
        if (last === "completed")
          await ctx.db.patch("bookings", bookingId, { scheduledFor: now - (i + 1) * DAY });
        if (last === "completed")
          // the demo's jobs took their time, and their customers confirmed them
          await ctx.db.patch("bookings", bookingId, {
            acceptedAt: now - (i + 1) * DAY - 2 * HOUR,
            workDoneAt: now - (i + 1) * DAY,
            confirmedBy: "customer",
            confirmedAt: now - (i + 1) * DAY,
          });
        if (s.review) await Reviews.create(ctx, customer, { bookingId, ...s.review });
      }
    }
    return null;
  },
});

/** A device reporting at least every 30 s wins over the demo's own wandering. */
const REAL_DEVICE_WINDOW_MS = 30 * 1000;
/** What a phone's GPS typically reports outdoors, in metres. */
const DEMO_ACCURACY_M = 15;

/**
 * A demo professional's phone, signed in and sharing its position: online for every page (the map,
 * the admin's grid, dispatch), as a real one would be.
 */
async function simulateDevice(
  ctx: MutationCtx,
  pro: Doc<"professionals">,
  at: { lat: number; lng: number },
  now: number,
) {
  await Presence.heartbeat(ctx, pro.userId, "professional", now);
  await Locations.writePosition(ctx, pro, { ...at, accuracy: DEMO_ACCURACY_M });
}

/**
 * Cron: demo professionals drift a little around their home point each minute, so the demo map stays
 * alive past the 10-minute live window. A no-op on databases without demo data.
 */
export const refreshDemoPositions = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const setting = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", DEMO_PROFESSIONALS_KEY))
      .unique();
    if (setting === null || typeof setting.value !== "string") return null;
    const now = Date.now();
    const ids = JSON.parse(setting.value) as Id<"professionals">[];
    for (const [i, id] of ids.entries()) {
      const pro = await ctx.db.get("professionals", id);
      if (pro === null) continue;
      const row = await ctx.db
        .query("liveLocations")
        .withIndex("by_professionalId", (q) => q.eq("professionalId", id))
        .unique();
      if (row !== null && now - row.updatedAt < REAL_DEVICE_WINDOW_MS) continue;
      // someone signed in as this professional and out again: they stay offline, as anyone would
      if (await Presence.wentOffline(ctx, pro.userId)) continue;
      const home = demoHome(
        i,
        CITIES.find((c) => c.slug === (pro.city as CitySlug))!,
      );
      const drift = () => (Math.random() - 0.5) * 0.004;
      await simulateDevice(ctx, pro, { lat: home.lat + drift(), lng: home.lng + drift() }, now);
    }
    return null;
  },
});
