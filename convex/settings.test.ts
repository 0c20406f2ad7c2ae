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
  expect(DEFAULT_SETTINGS.bannerText).toMatch(/New Year 2025/);
  await callers.admin.mutation(api.admin.updateSettings, { bannerText: "Dashain offers!" });
  expect(await t.query(api.settings.get, {})).toEqual({
    ...DEFAULT_SETTINGS,
    bannerText: "Dashain offers!",
  });
});
