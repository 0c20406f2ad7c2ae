import { afterAll, expect, it, vi } from "vitest";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

// Counts the log's fdatasyncs; `failNext` makes the next one fail as a disk error would.
const calls: number[] = [];
let failNext = false;
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    fdatasyncSync: (fd: number) => {
      calls.push(fd);
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
      }
      fs.fdatasyncSync(fd);
    },
  };
});

const { TransactionLog } = await import("../durability/log.ts");
const { Persistence } = await import("../persistence.ts");

afterAll(removeTempDataDirs);

it("sync makes every record appended so far durable with one fdatasync, and none when nothing is new", () => {
  const log = new TransactionLog(tempDataDir());
  log.recover();
  calls.length = 0;

  log.sync();
  expect(calls).toHaveLength(0); // nothing appended

  log.appendCommit(1n, [], 0, 0);
  log.appendCommit(2n, [], 0, 0);
  expect(log.isSynced()).toBe(false);
  log.sync();
  expect(calls).toHaveLength(1); // one for both records
  expect(log.isSynced()).toBe(true);

  log.sync(); // a second caller for the same records shares the first one's
  expect(calls).toHaveLength(1);

  log.appendCommit(3n, [], 0, 0);
  log.sync();
  expect(calls).toHaveLength(2);
  log.close();
});

it("a failed fdatasync is thrown and its records are not counted as durable", () => {
  const log = new TransactionLog(tempDataDir());
  log.recover();
  log.appendCommit(1n, [], 0, 0);
  failNext = true;
  expect(() => log.sync()).toThrow(/EIO/);
  expect(log.isSynced()).toBe(false);
  log.sync(); // the next caller tries again
  expect(log.isSynced()).toBe(true);
  log.close();
});

it("the durable() calls of one turn share one fdatasync, taken at the end of the turn", async () => {
  const dir = tempDataDir();
  const log = new TransactionLog(dir);
  const persistence = Persistence.open(log, dir, { storageSecret: "test" });
  calls.length = 0;

  // a burst of commits, each waiting for its own durable() as a queued mutation's answer does
  const waits = [1n, 2n, 3n].map((ts) => {
    log.appendCommit(ts, [], 0, 0);
    return persistence.durable();
  });
  expect(calls).toHaveLength(0); // not yet: later commits of this turn join it
  await Promise.all(waits);
  expect(calls).toHaveLength(1);
  expect(persistence.isDurable()).toBe(true);

  await persistence.durable(); // nothing new: no fdatasync
  expect(calls).toHaveLength(1);
  log.close();
});
