import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// Keeps liveLocations to the 10-minute live window that locations:current promises.
crons.interval("sweep stale locations", { minutes: 1 }, internal.locations.sweepStale, {});

// Demo professionals wander near home so the demo map stays populated; no-op without demo data.
crons.interval("refresh demo positions", { minutes: 1 }, internal.seed.refreshDemoPositions, {});

// Files uploaded but never attached (a sign-up abandoned after its uploads) are deleted once they are
// PENDING_UPLOADS.lifetimeMs old (2 hours): within 20 minutes after that.
crons.interval("sweep orphaned uploads", { minutes: 20 }, internal.files.sweepOrphans, {});

// Sign-up drafts live a day (DRAFT_LIMITS.lifetimeMs).
crons.interval(
  "sweep expired sign-up drafts",
  { hours: 1 },
  internal.signUpDrafts.sweepExpired,
  {},
);

// Unsettled wallet payments are asked about again on their schedule (model/wallets/attempts.ts).
crons.interval("re-check wallet payments", { minutes: 1 }, internal.wallets.startDueChecks, {});

export default crons;
