import { v } from "convex/values";
import { internalQuery } from "./_generated/server";
import { adminMutation, publicQuery } from "./functions";
import { city } from "./validators";
import * as Catalog from "./model/catalog";
import { serviceCards } from "./model/serviceCards";
import { headerSearch } from "./model/serviceSearch";

/** The services grid's cards, each with the cities that have bookable professionals, live. */
export const categories = publicQuery({
  args: {},
  returns: v.array(
    v.object({
      slug: v.string(),
      name: v.string(),
      description: v.string(),
      cities: v.array(city),
    }),
  ),
  handler: (ctx) => serviceCards(ctx),
});

/** `category` may be a slug, a display name or a spec alias ("Electrician", "Manson"). */
export const serviceNames = publicQuery({
  args: { category: v.string() },
  returns: v.array(v.string()),
  handler: (ctx, { category }) => Catalog.serviceNames(ctx, category),
});

export const serviceDetails = publicQuery({
  args: { category: v.string(), serviceName: v.string(), location: v.string() },
  returns: v.union(
    v.null(),
    v.object({
      _id: v.id("services"),
      name: v.string(),
      category: v.string(),
      description: v.string(),
      serviceWarranty: v.string(),
      availableCities: v.array(v.object({ name: city, cityName: v.string(), price: v.number() })),
      totalBookings: v.number(),
    }),
  ),
  handler: (ctx, args) => Catalog.serviceDetails(ctx, args),
});

export const search = publicQuery({
  args: { text: v.string() },
  returns: v.array(
    v.object({
      category: v.string(),
      categoryName: v.string(),
      serviceName: v.union(v.string(), v.null()),
      city: v.union(city, v.null()),
    }),
  ),
  handler: (ctx, { text }) => headerSearch(ctx, text.slice(0, 100)),
});

export const tileMarble = publicQuery({
  args: {},
  returns: v.array(v.object({ name: v.string(), price: v.number() })),
  handler: (ctx) => Catalog.tileMarble(ctx),
});

/** An admin sets how long a service's job takes (null: the category's default, rules/schedule.ts). */
export const setJobMinutes = adminMutation({
  args: { serviceId: v.id("services"), minutes: v.union(v.number(), v.null()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Catalog.setJobMinutes(ctx, args.serviceId, args.minutes);
    return null;
  },
});

/** For the /api/services/* routes (HTTP actions call internal functions only). */
export const serviceNamesForApi = internalQuery({
  args: { category: v.string() },
  handler: (ctx, { category }) => Catalog.serviceNames(ctx, category),
});

export const serviceDetailsForApi = internalQuery({
  args: { category: v.string(), serviceName: v.string(), location: v.string() },
  handler: (ctx, args) => Catalog.serviceDetails(ctx, args),
});
