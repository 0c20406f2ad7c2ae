import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { upsertCatalog } from "./model/catalog";
import { CATALOG } from "./model/catalogData";
import { insertAdmin, insertCustomer, insertProfessional, newTest } from "./test.setup";
import { LANDING_SERVICES, SPECIALTIES } from "./validators";
import { CATEGORY_DESCRIPTIONS_NE, CATEGORY_NAMES_NE } from "./localCategoryNames";
import { SERVICE_DESCRIPTIONS_NE, SERVICE_NAMES_NE, WARRANTIES_NE } from "./localServiceNames";

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  return t;
}

describe("catalog", () => {
  test("categories: the spec's 13 in order, the same for every caller", async () => {
    const t = await setup();
    const visitor = await t.query(api.catalog.categories, {});
    expect(visitor).toHaveLength(13);
    expect(visitor.map((c) => c.name)).toEqual([
      "Electrician",
      "Laundry",
      "Carpentry",
      "Plumber",
      "AC-Fridge",
      "Painter",
      "CCTV Camera Fitting",
      "Tile-Marble Fitting",
      "Aluminium-UPVC Decorator",
      "Home Appliance Service",
      "Water Purifier Service",
      "Mason",
      "Solar Technician",
    ]);
    expect(visitor[0]).toEqual({
      slug: "electrical",
      name: "Electrician",
      description: "Wiring, installation & electrical maintenance",
      cities: [],
    });
    for (const as of [(await insertCustomer(t)).as, (await insertAdmin(t)).as]) {
      expect(await as.query(api.catalog.categories, {})).toEqual(visitor);
    }
  });

  test("categories list the cities with bookable professionals, and unlisted services once bookable", async () => {
    const t = await setup();
    const citiesOf = async (slug: string) =>
      (await t.query(api.catalog.categories, {})).find((c) => c.slug === slug)?.cities;
    await insertProfessional(t, { specialty: "electrician", city: "pokhara" });
    await insertProfessional(t, { specialty: "electrician", city: "dhangadi", verified: false });
    await insertProfessional(t, { specialty: "electrician", city: "surkhet", available: false });
    const { userId } = await insertProfessional(t, {
      specialty: "electrician",
      city: "mahendranagar",
    });
    expect(await citiesOf("electrical")).toEqual(["pokhara", "mahendranagar"]);
    const admin = await insertAdmin(t);
    await t.run((ctx) =>
      ctx.db.patch("users", userId, { suspended: { at: 0, by: admin.userId, reason: "Fraud" } }),
    );
    expect(await citiesOf("electrical")).toEqual(["pokhara"]);

    expect(await citiesOf("jyotish")).toBeUndefined();
    await insertProfessional(t, { specialty: "jyotish", city: "nepalgunj" });
    const cards = await t.query(api.catalog.categories, {});
    expect(cards).toHaveLength(14);
    expect(cards.find((c) => c.slug === "jyotish")).toMatchObject({
      name: "Jyotish",
      cities: ["nepalgunj"],
    });
  });

  test("seeding is idempotent and keeps totalBookings", async () => {
    const t = await setup();
    const before = await t.run((ctx) => ctx.db.query("services").collect());
    await t.run(async (ctx) => ctx.db.patch("services", before[0]._id, { totalBookings: 7 }));
    expect(await t.run((ctx) => upsertCatalog(ctx))).toEqual({ inserted: 0 });
    const after = await t.run((ctx) => ctx.db.query("services").collect());
    expect(after).toHaveLength(before.length);
    expect(after.find((s) => s._id === before[0]._id)?.totalBookings).toBe(7);
    expect(await t.run((ctx) => ctx.db.query("serviceCategories").collect())).toHaveLength(14);
  });

  test("every specialty maps to a category with 3-6 services", () => {
    for (const s of SPECIALTIES) {
      const category = CATALOG.find((c) => c.slug === s.category);
      expect(category, s.slug).toBeDefined();
      expect(category!.services.length).toBeGreaterThanOrEqual(3);
      expect(category!.services.length).toBeLessThanOrEqual(6);
    }
  });

  test("serviceNames resolves spec aliases and legacy spellings", async () => {
    const t = await setup();
    const electrical = await t.query(api.catalog.serviceNames, { category: "electrical" });
    expect(electrical).toContain("House Wiring");
    expect(await t.query(api.catalog.serviceNames, { category: "Electrician" })).toEqual(
      electrical,
    );
    expect(await t.query(api.catalog.serviceNames, { category: "Plumber" })).toContain(
      "Tap & Mixer Repair",
    );
    expect(await t.query(api.catalog.serviceNames, { category: "Manson" })).toContain(
      "Crack Repair",
    );
    expect(await t.query(api.catalog.serviceNames, { category: "Home-Applicance" })).toContain(
      "LED TV Repair",
    );
    expect(await t.query(api.catalog.serviceNames, { category: "Tile-Marbal" })).toHaveLength(5);
    expect(await t.query(api.catalog.serviceNames, { category: "CCTV-camera-fitting" })).toContain(
      "DVR/NVR Setup",
    );
    expect(await t.query(api.catalog.serviceNames, { category: "Jyotish" })).toContain(
      "Kundali Reading",
    );
    expect(await t.query(api.catalog.serviceNames, { category: "nonsense" })).toEqual([]);
  });

  test("every spelling the spec uses resolves to a category with services", async () => {
    const t = await setup();
    const landingDropdown = LANDING_SERVICES;
    const specialtyValues = [
      "electrician",
      "plumber",
      "carpenter",
      "Solar-Technician",
      "Water-Purifier",
      "AC-Fridge",
      "Painter",
      "CCTV-camera-fitting",
      "Tile-Marble-fitting",
      "Home-Applicance",
      "Jyotish",
      "Manson",
      "Aluminium-UPVC-Decorator",
      "Laundry",
    ];
    const cardNames = (await t.query(api.catalog.categories, {})).map((c) => c.name);
    for (const spelling of [...landingDropdown, ...specialtyValues, ...cardNames, "Tile-Marbal"]) {
      expect(
        (await t.query(api.catalog.serviceNames, { category: spelling })).length,
        spelling,
      ).toBeGreaterThan(0);
    }
  });

  test("serviceDetails: the requested city's price, Kathmandu dearer, null where not offered", async () => {
    const t = await setup();
    const ktm = await t.query(api.catalog.serviceDetails, {
      category: "Electrician",
      serviceName: "House Wiring",
      location: "Kathmandu",
    });
    const npj = await t.query(api.catalog.serviceDetails, {
      category: "electrical",
      serviceName: "House Wiring",
      location: "nepalgunj",
    });
    expect(ktm).toMatchObject({
      name: "House Wiring",
      serviceWarranty: "90 days",
      totalBookings: 0,
      availableCities: [{ name: "kathmandu", cityName: "Kathmandu" }],
    });
    expect(npj!.availableCities).toEqual([
      { name: "nepalgunj", cityName: "Nepalgunj", price: 3500 },
    ]);
    expect(ktm!.availableCities[0].price).toBeGreaterThan(npj!.availableCities[0].price);
    expect(
      await t.query(api.catalog.serviceDetails, {
        category: "electrical",
        serviceName: "Nope",
        location: "Kathmandu",
      }),
    ).toBeNull();
    expect(
      await t.query(api.catalog.serviceDetails, {
        category: "electrical",
        serviceName: "House Wiring",
        location: "Paris",
      }),
    ).toBeNull();
  });

  test("search matches service and category words, at most 10", async () => {
    const t = await setup();
    const results = await t.query(api.catalog.search, { text: "fan" });
    expect(results).toContainEqual({
      category: "electrical",
      categoryName: "Electrician",
      serviceName: "Fan Installation",
      city: null,
    });
    expect(await t.query(api.catalog.search, { text: "plumber tap" })).toEqual([
      {
        category: "plumbing",
        categoryName: "Plumber",
        serviceName: "Tap & Mixer Repair",
        city: null,
      },
    ]);
    expect((await t.query(api.catalog.search, { text: "a" })).length).toBeLessThanOrEqual(10);
    expect(await t.query(api.catalog.search, { text: "   " })).toEqual([]);
    expect((await t.query(api.catalog.search, { text: "manson crack" }))[0]?.serviceName).toBe(
      "Crack Repair",
    );
  });

  test("every category and service of the catalogue has a Nepali name", () => {
    for (const category of CATALOG) {
      expect(CATEGORY_NAMES_NE[category.slug]?.name, category.slug).toBeTruthy();
      expect(CATEGORY_DESCRIPTIONS_NE[category.slug], category.slug).toMatch(/^[^A-Za-z0-9]+$/);
      for (const service of category.services)
        if (service.name !== category.name)
          expect(SERVICE_NAMES_NE[service.name], service.name).toBeTruthy();
    }
  });

  test("every service of the catalogue has a Nepali description, and no other does", () => {
    const names = CATALOG.flatMap((c) => c.services.map((s) => s.name));
    for (const name of names)
      expect(SERVICE_DESCRIPTIONS_NE[name], name).toMatch(/^[^A-Za-z0-9]+$/);
    expect(Object.keys(SERVICE_DESCRIPTIONS_NE).sort()).toEqual([...names].sort());
  });

  test("every warranty the catalogue gives has its Nepali, in Devanagari only", () => {
    const warranties = new Set(CATALOG.flatMap((c) => c.services.map((s) => s.serviceWarranty)));
    for (const w of warranties) expect(WARRANTIES_NE[w], w).toMatch(/^[^A-Za-z0-9]+$/);
    expect(Object.keys(WARRANTIES_NE).sort()).toEqual([...warranties].sort());
  });

  test("search matches Nepali names and synonyms, whichever vowel length is typed", async () => {
    const t = await setup();
    for (const text of ["बिजुली", "बिजुलि", "बिजुलीमिस्त्री", "इलेक्ट्रिसियन"]) {
      const results = await t.query(api.catalog.search, { text });
      expect(results.length, text).toBeGreaterThan(0);
      expect(new Set(results.map((r) => r.category)), text).toEqual(new Set(["electrical"]));
    }
    for (const text of ["प्लम्बर", "धारा"]) {
      const results = await t.query(api.catalog.search, { text });
      expect(results.length, text).toBeGreaterThan(0);
      expect(new Set(results.map((r) => r.category)), text).toEqual(new Set(["plumbing"]));
    }
    expect(
      (await t.query(api.catalog.search, { text: "धारा tap" })).map((r) => r.serviceName),
    ).toEqual(["Tap & Mixer Repair"]);
  });

  test("search understands a city, alone or with service words, in English, Nepali or romanised", async () => {
    const t = await setup();
    await insertProfessional(t, { specialty: "electrician", city: "pokhara" });
    await insertProfessional(t, { specialty: "plumber", city: "nepalgunj" });
    for (const text of ["Pokhara", "पोखरा", "पोखरामा"])
      expect(await t.query(api.catalog.search, { text }), text).toEqual([
        { category: "electrical", categoryName: "Electrician", serviceName: null, city: "pokhara" },
      ]);
    for (const text of ["नेपालगन्ज", "nepalganj"])
      expect(
        (await t.query(api.catalog.search, { text })).map((r) => [r.categoryName, r.city]),
        text,
      ).toEqual([["Plumber", "nepalgunj"]]);
    const electricianPokhara = await t.query(api.catalog.search, { text: "electrician pokhara" });
    expect(electricianPokhara.length).toBeGreaterThan(0);
    for (const r of electricianPokhara)
      expect([r.category, r.city]).toEqual(["electrical", "pokhara"]);
    expect(await t.query(api.catalog.search, { text: "Surkhet" })).toEqual([]);
  });

  test("search ranks services by the words they match: 'tap leak' finds taps and leaks", async () => {
    const t = await setup();
    const names = (await t.query(api.catalog.search, { text: "tap leak" })).map(
      (r) => r.serviceName,
    );
    expect(names).toEqual(expect.arrayContaining(["Tap & Mixer Repair", "Pipe Leakage Repair"]));
  });

  test("tileMarble lists the five spec items at Rs. 0", async () => {
    const t = await setup();
    expect(await t.query(api.catalog.tileMarble, {})).toEqual([
      { name: "Tile Fitting Wall", price: 0 },
      { name: "Tile Fitting Floor", price: 0 },
      { name: "Tile Fitting Roof", price: 0 },
      { name: "Marble Fitting Floor", price: 0 },
      { name: "Marble Fitting Wall", price: 0 },
    ]);
  });
});
