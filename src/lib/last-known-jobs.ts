/**
 * A professional's requests and jobs as last seen, kept on this device so that the dashboard opened
 * without a network still shows them (read-only). Each copy names its account and is shown only to
 * it; signing out forgets it, since it holds customers' addresses and phone numbers.
 */
const KEY = "gharsewa:last-known-jobs:v1";
const MAX_JOBS = 20;

export type LastKnownJobs<Job> = { userId: string; savedAt: number; jobs: Job[] };

export function rememberJobs<Job>(userId: string, jobs: readonly Job[]): void {
  const copy: LastKnownJobs<Job> = { userId, savedAt: Date.now(), jobs: jobs.slice(0, MAX_JOBS) };
  try {
    localStorage.setItem(KEY, JSON.stringify(copy));
  } catch {
    // storage full or refused: the dashboard just has no offline copy
  }
}

/** The copy kept for `userId`, if any. */
export function lastKnownJobs<Job>(userId: string): LastKnownJobs<Job> | null {
  try {
    const copy = JSON.parse(localStorage.getItem(KEY) ?? "null") as LastKnownJobs<Job> | null;
    return copy?.userId === userId && Array.isArray(copy.jobs) ? copy : null;
  } catch {
    return null;
  }
}

export function forgetLastKnownJobs(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // storage refused: nothing was kept
  }
}
