import { afterEach, describe, expect, it } from "vitest";
import {
  categoryFromServiceName,
  cityFor,
  detailsView,
  specialtyFor,
} from "@/features/search/search-logic";
import { setLocale } from "@/i18n/locale";

afterEach(() => setLocale("en"));

describe("category from serviceName (spec §2)", () => {
  it("maps the four spec names and passes others through", () => {
    expect(categoryFromServiceName("Electrician")).toBe("electrical");
    expect(categoryFromServiceName("Plumber")).toBe("plumbing");
    expect(categoryFromServiceName("Carpenter")).toBe("carpentry");
    expect(categoryFromServiceName("Painter")).toBe("painting");
    expect(categoryFromServiceName("Laundry")).toBe("Laundry");
    expect(categoryFromServiceName("Painting")).toBe("Painting");
    expect(categoryFromServiceName("AC-Fridge")).toBe("AC-Fridge");
  });

  it("finds the professionals' specialty for a category or label", () => {
    expect(specialtyFor("electrical")).toBe("electrician");
    expect(specialtyFor("Painting")).toBe("painter");
    expect(specialtyFor("CCTV-Camera-Fitting")).toBe("cctv");
    expect(specialtyFor("Manson")).toBe("mason");
    expect(specialtyFor("Nonsense")).toBeUndefined();
  });

  it("resolves the six cities by name", () => {
    expect(cityFor("Nepalgunj")?.slug).toBe("nepalgunj");
    expect(cityFor("Dhangadi")?.slug).toBe("dhangadi");
    expect(cityFor("Atlantis")).toBeUndefined();
  });
});

describe("details block", () => {
  it("shows the first available city's price and the service's fields", () => {
    expect(
      detailsView({
        name: "House Wiring",
        description: "Complete wiring",
        serviceWarranty: "90 days",
        availableCities: [{ name: "nepalgunj", cityName: "Nepalgunj", price: 3500 }],
        totalBookings: 2,
      }),
    ).toEqual({
      price: "Nrs. 3,500",
      guarantee: "90 days",
      service: "House Wiring",
      location: "Nepalgunj",
      description: "Complete wiring",
      serviceCharge: "Nrs. 3,500",
      totalBookings: "2",
    });
  });

  it("shows the service's name and description in Nepali, an unknown one's in English", () => {
    setLocale("ne-NP");
    const wiring = {
      name: "House Wiring",
      description: "Complete wiring",
      serviceWarranty: "90 days",
      availableCities: [],
      totalBookings: 2,
    };
    expect(detailsView(wiring)).toMatchObject({
      service: "घरको वायरिङ",
      description: "एउटा कोठाको लुकाइएको वा खुला पूरै वायरिङ, एमसीबी वितरण बोर्ड र अर्थिङसहित।",
      guarantee: "९० दिन",
    });
    expect(detailsView({ ...wiring, name: "Custom Job" }).description).toBe("Complete wiring");
  });

  it("falls back to the spec's texts when details are missing", () => {
    expect(detailsView(null)).toEqual({
      price: "Price not available",
      guarantee: "N/A",
      service: "N/A",
      location: "Location not available",
      description: "N/A",
      serviceCharge: "N/A",
      totalBookings: "Not available",
    });
    const noCities = detailsView({
      name: "X",
      description: "",
      serviceWarranty: "",
      availableCities: [],
      totalBookings: 0,
    });
    expect(noCities.price).toBe("Price not available");
    expect(noCities.location).toBe("Location not available");
    expect(noCities.guarantee).toBe("N/A");
    expect(noCities.totalBookings).toBe("0");
  });
});
