import { describe, expect, it } from "vitest";
import { BOOKING_STATUSES } from "@convex/rules/bookingLifecycle";
import { bookingStatusBadge } from "@/components/booking-status";

describe("bookingStatusBadge", () => {
  it("words a new request 'Requested' for everyone: one word for one state", () => {
    expect(bookingStatusBadge("requested", "customer")).toEqual({
      label: "Requested",
      tone: "info",
    });
    expect(bookingStatusBadge("requested", "admin")).toEqual({ label: "Requested", tone: "info" });
    expect(bookingStatusBadge("requested", "professional")).toEqual({
      label: "Requested",
      tone: "info",
    });
  });

  it("keeps the professional's quieter tones for finished jobs", () => {
    expect(bookingStatusBadge("completed", "customer")).toEqual({
      label: "Completed",
      tone: "success",
    });
    expect(bookingStatusBadge("completed", "professional")).toEqual({
      label: "Completed",
      tone: "neutral",
    });
    expect(bookingStatusBadge("expired", "customer")).toEqual({
      label: "Expired",
      tone: "warning",
    });
    expect(bookingStatusBadge("expired", "professional")).toEqual({
      label: "Expired",
      tone: "neutral",
    });
  });

  it("shares every other state between audiences", () => {
    for (const status of BOOKING_STATUSES.filter(
      (s) => !["requested", "completed", "expired"].includes(s),
    )) {
      expect(bookingStatusBadge(status, "professional")).toEqual(
        bookingStatusBadge(status, "customer"),
      );
    }
    expect(bookingStatusBadge("en_route", "customer")).toEqual({
      label: "On the way",
      tone: "brand",
    });
  });

  it("lists the states in the order of a booking's life", () => {
    expect(BOOKING_STATUSES).toEqual([
      "requested",
      "accepted",
      "rejected",
      "en_route",
      "arrived",
      "in_progress",
      "completed",
      "reviewed",
      "cancelled",
      "expired",
      "no_show",
    ]);
  });
});
