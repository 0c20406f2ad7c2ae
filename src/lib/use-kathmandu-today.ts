import { useEffect, useState } from "react";
import { DAY_MS, kathmanduDayStart } from "@convex/rules/earnings";

/**
 * The start of today in Kathmandu, moving on at midnight there by itself: one timer to the next
 * midnight (and a look when the tab is shown again, as timers of hidden tabs run late), never a poll.
 * Periods built from it ("today", this month) roll over live; queries take them as arguments.
 */
export function useKathmanduToday(): number {
  const [today, setToday] = useState(() => kathmanduDayStart(Date.now()));
  useEffect(() => {
    const check = () => setToday(kathmanduDayStart(Date.now()));
    const timer = setTimeout(check, today + DAY_MS - Date.now());
    document.addEventListener("visibilitychange", check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", check);
    };
  }, [today]);
  return today;
}
