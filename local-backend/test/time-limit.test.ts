// The execution time limit counts the function's own time: neither the time the machine's other load
// kept the process waiting (wall time only) nor other threads' CPU, GC's included (CPU time only).
import { describe, expect, it, vi } from "vitest";
import { Deadlines, TimeLimit, type Clocks } from "../engine/time-limit.ts";

/** Clocks the test moves by hand; counts the CPU readings (each one a syscall). */
function manualClocks() {
  const clocks = { now: 1000, cpuMs: 0, readings: 0 };
  const read: Clocks = {
    wall: () => clocks.now,
    cpuMicros: () => {
      clocks.readings += 1;
      return clocks.cpuMs * 1000;
    },
  };
  return { clocks, limit: new TimeLimit(read, 20) };
}

describe("execution time limit", () => {
  it("a run over the limit in wall time and in CPU time is over it", () => {
    const { clocks, limit } = manualClocks();
    const run = limit.start();
    clocks.now += 1100;
    clocks.cpuMs += 1100;
    expect(limit.over(run, 1000)).toBe(true);
  });

  it("waiting for the CPU (wall time only) is not the function's time", () => {
    const { clocks, limit } = manualClocks();
    const run = limit.start();
    clocks.now += 3000;
    clocks.cpuMs += 400;
    expect(limit.over(run, 1000)).toBe(false);
  });

  it("other threads' CPU (CPU time only) is not the function's time", () => {
    const { clocks, limit } = manualClocks();
    const run = limit.start();
    clocks.now += 600;
    clocks.cpuMs += 1900; // GC and worker threads beside the function's 600 ms
    expect(limit.over(run, 1000)).toBe(false);
  });

  it("reads the CPU time at most once per 20 ms, and after a run only when it passed the limit", () => {
    const { clocks, limit } = manualClocks();
    for (let i = 0; i < 100; i++) {
      const run = limit.start();
      clocks.now += 0.5;
      clocks.cpuMs += 0.5;
      expect(limit.over(run, 1000)).toBe(false);
    }
    expect(clocks.readings).toBe(3); // at 1000, 1020.5 and 1041 ms
  });

  it("time between an older CPU reading and the start is taken off, not counted", () => {
    const { clocks, limit } = manualClocks();
    limit.start(); // the reading
    clocks.now += 15;
    clocks.cpuMs += 15; // another run's
    const run = limit.start(); // reuses the reading from 15 ms ago
    clocks.now += 1010;
    clocks.cpuMs += 1010;
    expect(limit.over(run, 1000)).toBe(true);
    const quick = limit.start();
    clocks.now += 1001;
    clocks.cpuMs += 990;
    expect(limit.over(quick, 1000)).toBe(false);
  });
});

describe("HTTP actions' deadlines", () => {
  it("expires each run at its own deadline, and none that ended first", () => {
    vi.useFakeTimers();
    try {
      const deadlines = new Deadlines({ wall: () => Date.now() });
      const expired: string[] = [];
      const run = (name: string, limitMs: number) => {
        const watched = { at: 0, expire: () => expired.push(name) };
        deadlines.watch(watched, limitMs);
        return watched;
      };
      const a = run("a", 1000);
      vi.advanceTimersByTime(300);
      run("b", 1000);
      // A shorter limit (tests shorten it) is due before the timer armed for the oldest run.
      run("c", 100);
      const d = run("d", 1000);
      vi.advanceTimersByTime(100);
      expect(expired).toEqual(["c"]);
      deadlines.done(a);
      deadlines.done(d);
      vi.advanceTimersByTime(700);
      expect(expired).toEqual(["c"]);
      vi.advanceTimersByTime(200);
      expect(expired).toEqual(["c", "b"]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
