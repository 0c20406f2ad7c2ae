// Convex's execution time limit for queries and mutations, as the engine measures it.
//
// Top-level queries and mutations run one at a time (convex-test's transaction lock) and wait on
// nothing but the in-memory database: a function runs as synchronous slices on microtasks, one after
// the other, so the wall time from its start to its end is the time of its slices, unless the
// machine's other load kept the process waiting. The process's CPU time is free of that, but counts
// GC threads and other work of the process, and reading it is a syscall. So a run is over the limit
// only when both are: its wall time (a clock read) and, read only then, the CPU time since a reading
// taken at most `cpuReadingMs` before it started (one syscall per that long, not one per run).

export interface Clocks {
  /** Milliseconds, monotonic. */
  wall(): number;
  /** The process's CPU time (user + system), microseconds. */
  cpuMicros(): number;
}

const processClocks: Clocks = {
  wall: () => performance.now(),
  cpuMicros: () => {
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
