import { readFileSync } from "node:fs";

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks / 100; // USER_HZ is 100 on Linux
}
