import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// Keeps liveLocations to the 10-minute live window that locations:current promises.
crons.interval("sweep stale locations", { minutes: 1 }, internal.locations.sweepStale, {});

export default crons;
