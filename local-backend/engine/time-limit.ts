// Convex's execution time limit for queries and mutations, as the engine measures it.
import { existsSync, openSync, readSync } from "node:fs";
import { ConvexSystemError, formatDuration } from "./convex-values.ts";
//
// Top-level queries and mutations run one at a time (convex-test's transaction lock) and wait on
// nothing but the in-memory database: a function runs as synchronous slices on microtasks, one after
// the other, so the wall time from its start to its end is the time of its slices, unless the
// machine's other load kept the process waiting. The main thread's CPU time is free of that, but counts
// its other work, and reading it is a syscall. So a run is over the limit
// only when both are: its wall time (a clock read) and, read only then, the CPU time since a reading
// taken at most `cpuReadingMs` before it started (one syscall per that long, not one per run).

export interface Clocks {
  /** Milliseconds, monotonic. */
  wall(): number;
  /** The CPU time (user + system) of the thread functions run on, microseconds. */
  cpuMicros(): number;
}

/**
 * Linux's CPU time of the thread that first asks (utime + stime of /proc/thread-self/stat, in clock
 * ticks), read through one open descriptor: a read costs a few tens of µs, at most once per reading.
 */
const THREAD_STAT = "/proc/thread-self/stat";
const TICK_MICROS = 10_000;
let threadStat: { fd: number; buffer: Buffer } | null | undefined;

function threadCpuMicros(): number | null {
  if (threadStat === undefined)
    threadStat = existsSync(THREAD_STAT)
      ? { fd: openSync(THREAD_STAT, "r"), buffer: Buffer.alloc(1024) }
      : null;
  if (threadStat === null) return null;
  const read = readSync(threadStat.fd, threadStat.buffer, 0, threadStat.buffer.length, 0);
  const stat = threadStat.buffer.toString("latin1", 0, read);
  // after the command name, in parentheses: the state (field 3) first; utime and stime are 14 and 15
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
}

const processClocks: Clocks = {
  wall: () => performance.now(),
  // The main thread's own: actions' worker threads (engine/action-pool.ts) burn the process's CPU too.
  cpuMicros: () => {
    const thread = threadCpuMicros();
    if (thread !== null) return thread;
    const { user, system } = process.cpuUsage();
    return user + system;
  },
};

export interface Run {
  start: number;
  cpu: { at: number; micros: number };
}

export class TimeLimit {
  private reading = { at: -Infinity, micros: 0 };

  constructor(
    private readonly clocks: Clocks = processClocks,
    private readonly cpuReadingMs = 20,
  ) {}

  start(): Run {
    const now = this.clocks.wall();
    if (now - this.reading.at > this.cpuReadingMs)
      this.reading = { at: now, micros: this.clocks.cpuMicros() };
    return { start: now, cpu: this.reading };
  }

  /** Whether the run took longer than `limitMs`, both in wall time and in CPU time. */
  over(run: Run, limitMs: number): boolean {
    if (this.clocks.wall() - run.start <= limitMs) return false;
    // all the time between the reading and the start is taken off, as if the process had been busy
    const cpuMs = (this.clocks.cpuMicros() - run.cpu.micros) / 1000 - (run.start - run.cpu.at);
    return cpuMs > limitMs;
  }
}

/** Queries' and mutations' execution time: one reading of the process's clocks for all of them. */
const timeLimit = new TimeLimit();

/** Runs a query's or mutation's handler under Convex's execution time limit. */
export async function timed<T>(limit: number, run: () => Promise<T>): Promise<T> {
  const started = timeLimit.start();
  const result = await run();
  // Convex stops the function at the limit; here it fails when it returns, and its writes are rolled back.
  if (timeLimit.over(started, limit))
    throw new ConvexSystemError(
      `Function execution timed out (maximum duration: ${formatDuration(limit)})`,
    );
  return result;
}

/** A run `Deadlines` watches: `expire` is called if it is still watched at `at` (ms, `Clocks.wall`). */
export interface Watched {
  at: number;
  expire(): void;
}

/**
 * Runs that each expire some time after they start (HTTP actions), watched by one timer for all
 * instead of one per run: it waits for the earliest deadline armed, then expires what is due and waits
 * for the earliest left.
 */
export class Deadlines {
  private runs = new Set<Watched>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt = Infinity;

  constructor(private readonly clocks: Pick<Clocks, "wall"> = processClocks) {}

  /** Watches `run` from now until `done(run)`; it expires `limitMs` from now. */
  watch(run: Watched, limitMs: number) {
    run.at = this.clocks.wall() + limitMs;
    this.runs.add(run);
    if (run.at < this.armedAt) this.arm(run.at);
  }

  done(run: Watched) {
    this.runs.delete(run);
  }
  private arm(at: number) {
    clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - this.clocks.wall()));
    this.timer.unref();
  }

  private sweep() {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = this.clocks.wall();
    let next = Infinity;
    for (const run of this.runs) {
      if (run.at > now) next = Math.min(next, run.at);
      else {
        this.runs.delete(run);
        run.expire();
      }
    }
    if (next < Infinity) this.arm(next);
  }
}
