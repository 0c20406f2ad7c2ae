import { useEffect, useState } from "react";

/** The current time, updated every `everyMs`: for UI that changes as the clock moves (no server calls). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
