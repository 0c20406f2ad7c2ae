import { expect, test } from "vitest";
import { api } from "./_generated/api";
import { DEFAULT_SETTINGS } from "./model/settings";
import { everyKindOfCaller, newTest } from "./test.setup";

test("settings:get gives the defaults to everyone until an admin changes them", async () => {
  const t = newTest();
  const callers = await everyKindOfCaller(t);
  for (const as of Object.values(callers))
    expect(await as.query(api.settings.get, {})).toEqual(DEFAULT_SETTINGS);
  expect(DEFAULT_SETTINGS).toMatchObject({ hotline: "01-5970000", bookingExpiryMinutes: 30 });
  expect(DEFAULT_SETTINGS.bannerText).toMatch(/testing phase/);
  expect(DEFAULT_SETTINGS.bannerText).not.toMatch(/20\d\d/); // nothing dated to go stale
  expect(DEFAULT_SETTINGS.bannerText).not.toMatch(/[\u0900-\u097F]/);
  expect(DEFAULT_SETTINGS.bannerTextNe).toMatch(/परीक्षणको चरणमा/);
  await callers.admin.mutation(api.admin.updateSettings, { bannerText: "Dashain offers!" });
  expect(await t.query(api.settings.get, {})).toEqual({
    ...DEFAULT_SETTINGS,
    bannerText: "Dashain offers!",
  });
});

test("admin:updateSettings refuses what the settings form refuses, with the form's words", async () => {
  const t = newTest();
  const { admin } = await everyKindOfCaller(t);
  const refusal = (changes: Record<string, unknown>) =>
    admin.mutation(api.admin.updateSettings, changes).then(
      () => "saved",
      (error: { data?: { message?: string } }) => error.data?.message,
    );
  expect(await refusal({ bannerText: "x".repeat(301) })).toBe(
    "The banner text must be 1-300 characters.",
  );
  expect(await refusal({ bannerTextNe: "  " })).toBe("The Nepali banner text is required.");
  expect(await refusal({ bookingExpiryMinutes: 4 })).toBe("At least 5 minutes.");
  expect(await refusal({ bookingExpiryMinutes: 30.5 })).toBe("Use whole minutes.");
  expect(await refusal({ hotline: "call us" })).toBe(
    "Enter the hotline as a phone number, e.g. 01-5970000.",
  );
  expect(await refusal({ hotline: " 01-5970001 ", bookingExpiryMinutes: 45 })).toBe("saved");
  expect(await t.query(api.settings.get, {})).toMatchObject({
    hotline: "01-5970001",
    bookingExpiryMinutes: 45,
  });
});
