import { afterAll, expect, it, vi } from "vitest";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

// fdatasync completes only when the test says so.
const pending: (() => void)[] = [];
vi.mock("node:fs", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:fs")>()),
  fdatasync: (_fd: number, callback: (error: Error | null) => void) =>
    pending.push(() => callback(null)),
}));

const { TransactionLog } = await import("../durability/log.ts");

afterAll(removeTempDataDirs);

it("sync waits for the records appended before it, not for rounds that later records start", async () => {
  const log = new TransactionLog(tempDataDir());
  log.recover();
  const settled = (p: Promise<void>) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);

  log.appendCommit(1n, [], 0, 0);
  const first = log.sync();
  log.appendCommit(2n, [], 0, 0);
  const second = log.sync(); // its record is not covered by the fdatasync in flight
  expect(pending).toHaveLength(1);

  pending.shift()!();
  expect(await settled(first)).toBe(true);
  expect(await settled(second)).toBe(false);
  expect(pending).toHaveLength(1); // one round for everything appended meanwhile

  log.appendCommit(3n, [], 0, 0); // arrives during the second round
  pending.shift()!();
  expect(await settled(second)).toBe(true);
  expect(pending).toHaveLength(0);

  const third = log.sync();
  expect(pending).toHaveLength(1);
  pending.shift()!();
  expect(await settled(third)).toBe(true);
  log.close();
});
