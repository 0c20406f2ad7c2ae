import { expect, it } from "vitest";
import { nextRun } from "../crons.ts";

const at = (iso: string) => Date.parse(iso);

it("computes the next run of each cron schedule kind in UTC", () => {
  const from = at("2026-11-22T03:15:30Z"); // a Sunday
  expect(nextRun({ type: "interval", seconds: 30 }, from)).toBe(from + 30_000);
  expect(nextRun({ type: "interval", minutes: 1 }, from)).toBe(from + 60_000);
  expect(nextRun({ type: "interval", hours: 2 }, from)).toBe(from + 7_200_000);
  expect(nextRun({ type: "hourly", minuteUTC: 10 }, from)).toBe(at("2026-11-22T04:10:00Z"));
  expect(nextRun({ type: "daily", hourUTC: 3, minuteUTC: 20 }, from)).toBe(
    at("2026-11-22T03:20:00Z"),
  );
  expect(nextRun({ type: "weekly", dayOfWeek: "monday", hourUTC: 0, minuteUTC: 0 }, from)).toBe(
    at("2026-11-23T00:00:00Z"),
  );
  expect(nextRun({ type: "monthly", day: 1, hourUTC: 6, minuteUTC: 0 }, from)).toBe(
    at("2026-12-01T06:00:00Z"),
  );
  expect(nextRun({ type: "cron", cron: "*/5 * * * *" }, from)).toBe(at("2026-11-22T03:20:00Z"));
  expect(nextRun({ type: "cron", cron: "0 9-17/4 * * 1-5" }, from)).toBe(
    at("2026-11-23T09:00:00Z"),
  );
});
