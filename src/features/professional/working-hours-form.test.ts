import { describe, expect, it } from "vitest";
import { workingHoursFormSchema } from "@/features/professional/working-hours-form";

const issues = (value: unknown) =>
  workingHoursFormSchema.safeParse(value).error?.issues.map((i) => [i.path.join("."), i.message]);

describe("the working-hours form's schema (the server's workingHoursRule on the form's fields)", () => {
  it("takes days and from/to clock times", () => {
    expect(issues({ days: [0, 1, 2], from: "09:00", to: "17:30" })).toBeUndefined();
  });

  it("puts each refusal of the shared rule on the field it concerns", () => {
    expect(issues({ days: [], from: "09:00", to: "17:00" })).toEqual([
      ["days", "Choose at least one working day."],
    ]);
    expect(issues({ days: [1], from: "17:00", to: "09:00" })).toEqual([
      ["to", "The end time must be after the start time."],
    ]);
  });

  it("asks for a time where a field is empty", () => {
    expect(issues({ days: [1], from: "", to: "17:00" })?.[0][0]).toBe("from");
  });
});
