/**
 * Whether the drills run at full size: `npm run drills` (drills/run.ts) sets DRILLS_FULL=1 for itself
 * and the vitest runs it starts; `npm test` runs each drill at a size that still proves its property.
 */
export const FULL = process.env.DRILLS_FULL === "1";
