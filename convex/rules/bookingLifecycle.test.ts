import { describe, expect, test } from "vitest";
import {
  BOOKING_STATUSES,
  STEPS,
  TRANSITIONS,
  checkTransition,
  stepsFor,
  type Actor,
} from "./bookingLifecycle";

const ACTORS: Actor[] = ["customer", "professional", "admin", "system"];

describe("checkTransition", () => {
  test("a move to the current status is a no-op for anyone", () => {
    for (const status of BOOKING_STATUSES)
      for (const actor of ACTORS)
        expect(checkTransition(status, status, actor)).toEqual({ kind: "noop" });
  });

  test("exactly the table's edges apply, and only for their actors", () => {
    let applied = 0;
    for (const from of BOOKING_STATUSES)
      for (const to of BOOKING_STATUSES) {
        if (from === to) continue;
        for (const actor of ACTORS) {
          const allowed = TRANSITIONS[from]?.[to]?.includes(actor) ?? false;
          expect(checkTransition(from, to, actor).kind).toBe(allowed ? "apply" : "illegal");
          if (allowed) applied += 1;
        }
      }
    expect(applied).toBe(23);
  });

  test("refusals say why in words", () => {
    expect(checkTransition("completed", "accepted", "professional")).toEqual({
      kind: "illegal",
      message: "A completed booking cannot become accepted.",
    });
    expect(checkTransition("in_progress", "cancelled", "customer")).toEqual({
      kind: "illegal",
      message: "A customer cannot move a in progress booking to cancelled.",
    });
  });

  test("terminal statuses go nowhere", () => {
    for (const from of ["rejected", "reviewed", "cancelled", "expired"] as const)
      for (const to of BOOKING_STATUSES)
        if (to !== from) expect(checkTransition(from, to, "professional").kind).toBe("illegal");
  });
});

describe("stepsFor", () => {
  test("gives each side the buttons the table allows", () => {
    expect(stepsFor("requested", "professional")).toEqual(["accept", "reject"]);
    expect(stepsFor("requested", "customer")).toEqual(["cancel"]);
    expect(stepsFor("accepted", "professional")).toEqual(["startTrip", "cancel"]);
    expect(stepsFor("accepted", "customer")).toEqual(["cancel", "noShow"]);
    expect(stepsFor("en_route", "professional")).toEqual(["arrive", "cancel"]);
    // from here on a customer's cancellation costs the fee (rules/cancellation.ts); a no-show only
    // once the professional is late (rules/noShow.ts)
    expect(stepsFor("en_route", "customer")).toEqual(["cancel", "noShow"]);
    // the professional starts with the customer's code; the customer, once its tries are spent
    expect(stepsFor("arrived", "professional")).toEqual(["start", "cancel"]);
    expect(stepsFor("arrived", "customer")).toEqual(["start", "cancel"]);
    expect(stepsFor("in_progress", "professional")).toEqual(["complete"]);
    expect(stepsFor("completed", "customer")).toEqual([]);
  });

  test("an admin may cancel any open booking, a running job included, and nothing else", () => {
    for (const status of ["requested", "accepted", "en_route", "arrived", "in_progress"] as const)
      expect(stepsFor(status, "admin")).toEqual(["cancel"]);
    for (const status of ["completed", "reviewed", "cancelled", "rejected", "expired"] as const)
      expect(stepsFor(status, "admin")).toEqual([]);
  });

  test("every step leads along an edge someone may take", () => {
    for (const status of Object.values(STEPS))
      expect(BOOKING_STATUSES.some((from) => TRANSITIONS[from]?.[status])).toBe(true);
  });
});
