import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// Keeps liveLocations to the 10-minute live window that locations:current promises.
crons.interval("sweep stale locations", { minutes: 1 }, internal.locations.sweepStale, {});

// Demo professionals wander near home so the demo map stays populated; no-op without demo data.
crons.interval("refresh demo positions", { minutes: 1 }, internal.seed.refreshDemoPositions, {});

export default crons;
