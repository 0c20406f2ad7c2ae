import { useQueries } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useMemo } from "react";
import { api } from "@convex/_generated/api";

export type OnMap = FunctionReturnType<typeof api.locations.onMap>;
type Rounded = FunctionReturnType<typeof api.locations.marker>;

/**
 * The rounded position of each professional `locations.onMap` lists, one subscription per marker: a
 * professional's move re-sends one small result, and every watcher shares each run. A professional
 * whose position has not arrived, or who left the map, has no entry.
 */
export function useRoundedPositions(listed: OnMap): Map<string, { lat: number; lng: number }> {
  const answers = useQueries(
    useMemo(
      () =>
        Object.fromEntries(
          listed.map((p) => [
            p.professionalId,
            { query: api.locations.marker, args: { professionalId: p.professionalId } },
          ]),
        ),
      [listed],
    ),
  ) as Record<string, Rounded | undefined | Error>;
  const positions = new Map<string, { lat: number; lng: number }>();
  for (const [id, at] of Object.entries(answers)) {
    if (at !== undefined && at !== null && !(at instanceof Error)) positions.set(id, at);
  }
  return positions;
}
