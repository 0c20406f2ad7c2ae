import { beforeEach, describe, expect, it } from "vitest";
import { forgetLastKnownJobs, lastKnownJobs, rememberJobs } from "@/lib/last-known-jobs";

beforeEach(() => localStorage.clear());

describe("the jobs a device last saw", () => {
  it("are kept for the account that saw them, at most 20, with when they were seen", () => {
    rememberJobs(
      "user1",
      Array.from({ length: 25 }, (_, id) => ({ id })),
    );
    const copy = lastKnownJobs<{ id: number }>("user1");
    expect(copy?.jobs).toHaveLength(20);
    expect(copy?.jobs[0]).toEqual({ id: 0 });
    expect(Date.now() - (copy?.savedAt ?? 0)).toBeLessThan(1_000);
  });

  it("are never given to another account", () => {
    rememberJobs("user1", [{ id: 1 }]);
    expect(lastKnownJobs("user2")).toBeNull();
  });

  it("a damaged copy gives nothing rather than breaking the page", () => {
    localStorage.setItem("gharsewa:last-known-jobs:v1", "{not json");
    expect(lastKnownJobs("user1")).toBeNull();
    localStorage.setItem("gharsewa:last-known-jobs:v1", JSON.stringify({ userId: "user1" }));
    expect(lastKnownJobs("user1")).toBeNull();
  });

  it("are gone once forgotten", () => {
    rememberJobs("user1", [{ id: 1 }]);
    forgetLastKnownJobs();
    expect(lastKnownJobs("user1")).toBeNull();
  });
});
