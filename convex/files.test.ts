import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { ORPHAN_AFTER_MS, claimFile, sniffImageType } from "./model/files";
import { errorCode, everyKindOfCaller, newTest, signUpDraft, storeFile, type TestConvex } from "./test.setup";

afterEach(() => {
  vi.useRealTimers();
});

describe("files:generateUploadUrl", () => {
  test("open to everyone: signed-in users, and visitors with a sign-up draft (documents are uploaded before sign-up)", async () => {
    const t = newTest();
    const { visitor, ...signedIn } = await everyKindOfCaller(t);
    for (const as of Object.values(signedIn)) {
      expect(await as.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);
    }
    expect(await visitor.mutation(api.files.generateUploadUrl, { draft: await signUpDraft(t) })).toMatch(/^https?:/);
    expect(await errorCode(visitor.mutation(api.files.generateUploadUrl, {}))).toBe("DRAFT_NOT_FOUND");
  });
});

describe("files:sweepOrphans", () => {
  const HOUR = 60 * 60 * 1000;
  const stored = (t: TestConvex, ids: Id<"_storage">[]) =>
    t.run(async (ctx) => {
      const found = await Promise.all(ids.map((id) => ctx.db.system.get("_storage", id)));
      return ids.filter((_, i) => found[i] !== null);
    });

  test("deletes files over a day old that no profile attached; keeps attached and younger ones", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const abandoned = await storeFile(t);
    const attached = await storeFile(t);
    await t.run((ctx) => claimFile(ctx, attached, "Profile photo"));

    vi.advanceTimersByTime(ORPHAN_AFTER_MS - HOUR);
    const recent = await storeFile(t);
    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, [abandoned, attached, recent])).toEqual([abandoned, attached, recent]);

    vi.advanceTimersByTime(2 * HOUR);
    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, [abandoned, attached, recent])).toEqual([attached, recent]);
  });

  test("works through many files a page per run, rescheduling itself until done", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const orphans = await t.run(async (ctx) => {
      const ids: Id<"_storage">[] = [];
      for (let i = 0; i < 250; i++) ids.push(await ctx.storage.store(new Blob([new Uint8Array([i])])));
      return ids;
    });
    vi.advanceTimersByTime(ORPHAN_AFTER_MS + HOUR);

    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, orphans)).toHaveLength(150);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await stored(t, orphans)).toEqual([]);
    const runs = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
    expect(runs.map((r) => r.name)).toEqual(["files:sweepOrphans", "files:sweepOrphans"]);
  });
});

describe("magic bytes", () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  const ascii = (s: string) => new TextEncoder().encode(s);
  test("JPEG, PNG, GIF and WebP are recognised", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffImageType(ascii("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(ascii("RIFF\x00\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
  });
  test("anything else is not an image", () => {
    expect(sniffImageType(ascii("%PDF-1.7"))).toBeNull();
    expect(sniffImageType(ascii("<svg xmlns="))).toBeNull();
    expect(sniffImageType(ascii("RIFF\x00\x00\x00\x00WAVE"))).toBeNull();
    expect(sniffImageType(bytes(0x89, 0x50))).toBeNull();
    expect(sniffImageType(bytes())).toBeNull();
  });
});
