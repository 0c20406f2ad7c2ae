import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "@/i18n/locale";
import { notificationText } from "@/i18n/notifications";

afterEach(() => setLocale("en"));

const requested = {
  kind: "booking.requested",
  title: "New booking request",
  body: "Sita Sharma requested House Wiring in Kathmandu.",
  params: {
    actor: "Sita Sharma",
    actorRole: "customer",
    services: "House Wiring",
    city: "kathmandu",
  },
};

describe("notificationText", () => {
  it("words a stored notification in the reader's language from its kind and params", () => {
    expect(notificationText(requested)).toEqual({
      title: "New booking request",
      body: "Sita Sharma requested House Wiring in Kathmandu.",
    });
    setLocale("ne-NP");
    expect(notificationText(requested).title).toBe("नयाँ बुकिङ अनुरोध");
    expect(notificationText(requested).body).toContain("काठमाडौं");
  });

  it("writes the price in the reader's digits", () => {
    const completed = {
      kind: "booking.completed",
      title: "Job completed",
      body: "",
      params: { actor: "", actorRole: "professional", services: "House Wiring", price: "4550" },
    };
    expect(notificationText(completed).body).toBe(
      "The professional completed House Wiring. Total Nrs. 4,550. Please rate the job.",
    );
    setLocale("ne-NP");
    expect(notificationText(completed).body).toContain("रु. ४,५५०");
  });

  it("gives rows stored before params existed the kind's general wording", () => {
    const old = { kind: "booking.accepted", title: "Booking accepted", body: "Ram accepted …" };
    setLocale("ne-NP");
    expect(notificationText(old)).toEqual({
      title: "बुकिङ स्वीकार भयो",
      body: "तपाईंको बुकिङ स्वीकार भयो।",
    });
  });

  it("keeps the stored words of a kind it does not know", () => {
    setLocale("ne-NP");
    expect(notificationText({ kind: "system.other", title: "T", body: "B" })).toEqual({
      title: "T",
      body: "B",
    });
  });
});
