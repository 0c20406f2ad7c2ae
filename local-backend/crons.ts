// Runs the jobs declared in convex/crons.ts (cronJobs()) in real time.
import type { Engine } from "./engine/engine.ts";

interface Schedule {
  type: "interval" | "hourly" | "daily" | "weekly" | "monthly" | "cron";
  seconds?: number;
  minutes?: number;
  hours?: number;
  minuteUTC?: number;
  hourUTC?: number;
  dayOfWeek?: string | number;
  day?: number;
  cron?: string;
}
interface CronSpec {
  name: string;
  args: unknown[];
  schedule: Schedule;
}

const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

function field(spec: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const part of spec.split(",")) {
    const [range, stepText] = part.split("/");
    const step = stepText ? Number(stepText) : 1;
    let [lo, hi] = [min, max];
    if (range !== "*") {
      const [a, b] = range.split("-").map(Number);
      lo = a;
      hi = b ?? (stepText ? max : a);
    }
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

/** A predicate on whole UTC minutes for the non-interval schedules. */
function matcher(schedule: Schedule): (d: Date) => boolean {
  const m = schedule.minuteUTC ?? 0;
  const h = schedule.hourUTC ?? 0;
  switch (schedule.type) {
    case "hourly":
      return (d) => d.getUTCMinutes() === m;
    case "daily":
      return (d) => d.getUTCMinutes() === m && d.getUTCHours() === h;
    case "weekly": {
      const dow =
        typeof schedule.dayOfWeek === "string" ? DAYS[schedule.dayOfWeek] : schedule.dayOfWeek;
      return (d) => d.getUTCMinutes() === m && d.getUTCHours() === h && d.getUTCDay() === dow;
    }
    case "monthly":
      return (d) =>
        d.getUTCMinutes() === m && d.getUTCHours() === h && d.getUTCDate() === schedule.day;
    default: {
      const [mi, ho, dom, mo, dw] = (schedule.cron ?? "* * * * *").trim().split(/\s+/);
      const sets = [
        field(mi, 0, 59),
        field(ho, 0, 23),
        field(dom, 1, 31),
        field(mo, 1, 12),
        field(dw.replace("7", "0"), 0, 6),
      ];
      return (d) =>
        sets[0].has(d.getUTCMinutes()) &&
        sets[1].has(d.getUTCHours()) &&
        sets[2].has(d.getUTCDate()) &&
        sets[3].has(d.getUTCMonth() + 1) &&
        sets[4].has(d.getUTCDay());
    }
  }
}

export function nextRun(schedule: Schedule, from: number): number {
  if (schedule.type === "interval") {
    const seconds = schedule.seconds ?? (schedule.minutes ?? 0) * 60 + (schedule.hours ?? 0) * 3600;
    return from + seconds * 1000;
  }
  const matches = matcher(schedule);
  let t = Math.floor(from / 60_000) * 60_000 + 60_000;
  for (let i = 0; i < 366 * 24 * 60; i++, t += 60_000) if (matches(new Date(t))) return t;
  return Number.POSITIVE_INFINITY;
}

/** Starts timers for every cron job; returns a function that stops them. */
export async function startCrons(engine: Engine): Promise<() => void> {
  const exports = await engine.moduleExports("crons");
  const crons = (exports?.default as { crons?: Record<string, CronSpec> } | undefined)?.crons ?? {};
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const arm = (id: string, job: CronSpec) => {
    const at = nextRun(job.schedule, Date.now());
    if (!Number.isFinite(at)) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (stopped) return;
        engine
          .call("any", job.name, job.args[0] ?? {}, { identity: null, admin: true })
          .catch((error) =>
            console.error(
              `local-backend: cron "${id}" (${job.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          )
          .finally(() => !stopped && arm(id, job));
      },
      Math.min(at - Date.now(), 2 ** 31 - 1),
    );
    timers.add(timer);
  };
  for (const [id, job] of Object.entries(crons)) arm(id, job);
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
  };
}
