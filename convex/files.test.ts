import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { UPLOAD_URL_LIFETIME_MS, attachOwnFile } from "./model/files";
import { PENDING_UPLOADS } from "./rules/limits";
import {
  errorCode,
  everyKindOfCaller,
  insertCustomer,
  insertProfessional,
  newTest,
  professionalSignUp,
  signUpDraft,
  storeFile,
  storeUpload,
  useAuthEnv,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

afterEach(() => {
  vi.useRealTimers();
});

const profile = {
  name: "Sita Sharma",
  phone: "9800000001",
  address: "Ward 4, Baneshwor",
  zipCode: "44600",
};

describe("files:generateUploadUrl", () => {
  test("open to everyone: signed-in users, and visitors with a sign-up draft (documents are uploaded before sign-up)", async () => {
    const t = newTest();
    const { visitor, ...signedIn } = await everyKindOfCaller(t);
    for (const as of Object.values(signedIn)) {
      expect(await as.mutation(api.files.generateUploadUrl, {})).toMatch(
        /^https?:.*\/api\/uploads\?grant=[0-9a-f]{32}$/,
      );
    }
    expect(
      await visitor.mutation(api.files.generateUploadUrl, { draft: await signUpDraft(t) }),
    ).toMatch(/^https?:/);
    expect(await errorCode(visitor.mutation(api.files.generateUploadUrl, {}))).toBe(
      "DRAFT_NOT_FOUND",
    );
  });

  test("records who asked: the signed-in user, or the visitor's draft", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const draft = await signUpDraft(t);
    await customer.as.mutation(api.files.generateUploadUrl, {});
    await t.mutation(api.files.generateUploadUrl, { draft });
    const [byUser, byDraft] = await t.run((ctx) => ctx.db.query("uploadGrants").collect());
    const draftId = await t.run(async (ctx) => (await ctx.db.query("signUpDrafts").first())!._id);
    const owner = (g: typeof byUser) => ({
      userId: g.userId,
      draftId: g.draftId,
      storageId: g.storageId,
    });
    expect(owner(byUser)).toEqual({
      userId: customer.userId,
      draftId: undefined,
      storageId: undefined,
    });
    expect(owner(byDraft)).toEqual({ userId: undefined, draftId, storageId: undefined });
  });
});

describe("a file belongs to whoever asked for its upload URL", () => {
  test("another user's upload, attached or not, is refused with FILE_NOT_YOURS and stays its owner's", async () => {
    const t = newTest();
    const owner = await insertCustomer(t, "Owner");
    const thief = await insertCustomer(t, "Thief");
    const photo = await storeUpload(t, { userId: owner.userId });
    const steal = () => thief.as.mutation(api.users.updateProfile, { ...profile, photo });

    expect(await errorCode(steal())).toBe("FILE_NOT_YOURS");
    await owner.as.mutation(api.users.updateProfile, { ...profile, photo });
    expect(await errorCode(steal())).toBe("FILE_NOT_YOURS");

    const { ownerRow, thiefRow, file, attached } = await t.run(async (ctx) => ({
      ownerRow: await ctx.db.get("users", owner.userId),
      thiefRow: await ctx.db.get("users", thief.userId),
      file: await ctx.db.system.get("_storage", photo),
      attached: await ctx.db.query("uploads").collect(),
    }));
    expect(ownerRow?.photo).toBe(photo);
    expect(thiefRow?.photo).toBeUndefined();
    expect(file).not.toBeNull();
    expect(attached).toEqual([expect.objectContaining({ storageId: photo, userId: owner.userId })]);
  });

  test("a visitor's sign-up uploads cannot be taken by a user or another sign-up; the owner's sign-up still completes", async () => {
    const t = newTest();
    const params = await professionalSignUp(t, "owner@example.np");
    const document = params.citizenshipFront;
    const thief = await insertCustomer(t, "Thief");
    expect(
      await errorCode(thief.as.mutation(api.users.updateProfile, { ...profile, photo: document })),
    ).toBe("FILE_NOT_YOURS");
    const other = await professionalSignUp(t, "thief@example.np");
    const stolen = { ...other, citizenshipFront: document };
    expect(
      await errorCode(t.action(api.auth.signIn, { provider: "professional", params: stolen })),
    ).toBe("FILE_NOT_YOURS");
    expect(
      await errorCode(
        t.action(api.auth.signIn, { provider: "customer", params: { ...other, photo: document } }),
      ),
    ).toBe("FILE_NOT_YOURS");

    const signedUp = await t.action(api.auth.signIn, { provider: "professional", params });
    expect(signedUp.tokens?.token).toBeTypeOf("string");
    const { pro, attached } = await t.run(async (ctx) => {
      const user = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "owner@example.np"))
        .unique();
      return {
        pro: await ctx.db
          .query("professionals")
          .withIndex("by_userId", (q) => q.eq("userId", user!._id))
          .unique(),
        attached: await ctx.db
          .query("uploads")
          .withIndex("by_storageId", (q) => q.eq("storageId", document))
          .unique(),
      };
    });
    expect(pro?.documents.citizenshipFront).toBe(document);
    expect(attached?.userId).toBe(pro?.userId);
  });

  test("a refused sign-up neither reads nor deletes the owner's file (reading deletes a file that is not an image)", async () => {
    const t = newTest();
    const victim = await signUpDraft(t);
    const pdf = await storeUpload(
      t,
      { draft: victim },
      new TextEncoder().encode("%PDF-1.7 not an image"),
    );
    const thief = await professionalSignUp(t);
    expect(
      await errorCode(
        t.action(api.auth.signIn, {
          provider: "professional",
          params: { ...thief, trainingCertificate: pdf },
        }),
      ),
    ).toBe("FILE_NOT_YOURS");
    expect(await t.run((ctx) => ctx.db.system.get("_storage", pdf))).not.toBeNull();
  });

  test("a file stored by other means, or by the deployment for its demo accounts, is no user's or sign-up's to attach", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const stray = await storeFile(t);
    const demo = await storeFile(t);
    await t.mutation(internal.files.recordDeploymentFiles, { storageIds: [demo] });
    const params = await professionalSignUp(t);
    for (const file of [stray, demo]) {
      expect(
        await errorCode(customer.as.mutation(api.users.updateProfile, { ...profile, photo: file })),
      ).toBe("FILE_NOT_YOURS");
      expect(
        await errorCode(
          t.action(api.auth.signIn, {
            provider: "professional",
            params: { ...params, citizenshipBack: file },
          }),
        ),
      ).toBe("FILE_NOT_YOURS");
    }
  });

  test("replacing documents takes only the professional's own uploads; their attached photo is FILE_IN_USE", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { verified: false });
    const other = await insertCustomer(t);
    const theirs = await storeUpload(t, { userId: other.userId });
    const photo = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.users.updateProfile, { ...profile, phone: "9800000002", photo });
    expect(
      await errorCode(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: theirs }),
      ),
    ).toBe("FILE_NOT_YOURS");
    expect(
      await errorCode(
        pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: photo }),
      ),
    ).toBe("FILE_IN_USE");
    const own = await storeUpload(t, { userId: pro.userId });
    await pro.as.mutation(api.professionals.resubmitDocuments, { citizenshipFront: own });
    const row = await t.run((ctx) => ctx.db.get("professionals", pro.professionalId));
    expect(row?.documents.citizenshipFront).toBe(own);
  });
});

describe("the quota of files not attached yet", () => {
  test("a sign-up's files stored by the server (an HTTP registration's form) count against its draft's quota", async () => {
    const t = newTest();
    const draft = await signUpDraft(t);
    const fiveMb = new Uint8Array(5 * 1024 * 1024);
    fiveMb.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const fits = PENDING_UPLOADS.perUploader.bytes / fiveMb.length;
    for (let i = 0; i < fits; i++) await storeUpload(t, { draft }, fiveMb);
    expect(await errorCode(storeUpload(t, { draft }, fiveMb))).toBe("UPLOAD_QUOTA_FULL");
    const grants = await t.run((ctx) => ctx.db.query("uploadGrants").collect());
    expect(grants.map((g) => g.bytes)).toEqual(Array(fits).fill(fiveMb.length));
    await storeUpload(t, { draft: await signUpDraft(t) }, fiveMb); // another sign-up's own quota
  });
});

describe("files:sweepOrphans", () => {
  const HOUR = 60 * 60 * 1000;
  const stored = (t: TestConvex, ids: Id<"_storage">[]) =>
    t.run(async (ctx) => {
      const found = await Promise.all(ids.map((id) => ctx.db.system.get("_storage", id)));
      return ids.filter((_, i) => found[i] !== null);
    });

  test("deletes files no profile attached once they are 2 hours old, with their grants; keeps attached and younger ones", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const { userId } = await insertCustomer(t);
    const abandoned = await storeUpload(t, { userId });
    const stray = await storeFile(t);
    const attached = await storeUpload(t, { userId });
    await t.run((ctx) => attachOwnFile(ctx, attached, "Profile photo", { userId }, userId));

    expect(PENDING_UPLOADS.lifetimeMs).toBe(2 * HOUR);
    vi.advanceTimersByTime(PENDING_UPLOADS.lifetimeMs - HOUR / 2);
    const recent = await storeUpload(t, { userId });
    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, [abandoned, stray, attached, recent])).toEqual([
      abandoned,
      stray,
      attached,
      recent,
    ]);

    vi.advanceTimersByTime(HOUR);
    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, [abandoned, stray, attached, recent])).toEqual([attached, recent]);
    const grants = await t.run((ctx) => ctx.db.query("uploadGrants").collect());
    expect(grants.map((g) => g.storageId)).toEqual([recent]);
  });

  test("upload URLs that expired unused are deleted; a used one stays with its file", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const customer = await insertCustomer(t);
    await customer.as.mutation(api.files.generateUploadUrl, {});
    const used = await storeUpload(t, { userId: customer.userId });
    vi.advanceTimersByTime(UPLOAD_URL_LIFETIME_MS - 1);
    const fresh = await customer.as.mutation(api.files.generateUploadUrl, {});
    vi.advanceTimersByTime(2);
    await t.mutation(internal.files.sweepGrants, {});
    const grants = await t.run((ctx) => ctx.db.query("uploadGrants").collect());
    expect(grants.map((g) => g.storageId ?? g.token)).toEqual([
      used,
      new URL(fresh).searchParams.get("grant"),
    ]);
  });

  test("works through many files a page per run, rescheduling itself until done", async () => {
    vi.useFakeTimers();
    const t = newTest();
    const orphans = await t.run(async (ctx) => {
      const ids: Id<"_storage">[] = [];
      for (let i = 0; i < 250; i++)
        ids.push(await ctx.storage.store(new Blob([new Uint8Array([i])])));
      return ids;
    });
    vi.advanceTimersByTime(PENDING_UPLOADS.lifetimeMs + HOUR);

    await t.mutation(internal.files.sweepOrphans, {});
    expect(await stored(t, orphans)).toHaveLength(150);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await stored(t, orphans)).toEqual([]);
    const runs = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
    expect(runs.map((r) => r.name).sort()).toEqual([
      "files:sweepGrants",
      "files:sweepOrphans",
      "files:sweepOrphans",
    ]);
  });
});
