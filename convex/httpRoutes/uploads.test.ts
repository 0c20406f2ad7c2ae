import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../_generated/api";
import { MAX_IMAGE_BYTES, attachOwnFile } from "../model/files";
import { PENDING_UPLOADS } from "../rules/limits";
import {
  PNG_BYTES,
  customerSignUp,
  insertCustomer,
  newTest,
  useAuthEnv,
  type TestConvex,
} from "../test.setup";

beforeAll(useAuthEnv);

const ORIGIN = "http://127.0.0.1:5173";

/** POSTs bytes to an upload URL files:generateUploadUrl handed out (its path on the site), as a browser does. */
function post(t: TestConvex, uploadUrl: string, body: Uint8Array, type = "image/png") {
  const url = new URL(uploadUrl);
  return t.fetch(`${url.pathname}${url.search}`, {
    method: "POST",
    headers: { "Content-Type": type, "Content-Length": String(body.byteLength), Origin: ORIGIN },
    body: body as BodyInit,
  });
}

const storedFiles = (t: TestConvex) => t.run((ctx) => ctx.db.system.query("_storage").collect());

describe("POST /api/uploads", () => {
  test("stores the file for whoever asked for the URL, once, and answers {storageId} to the browser", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const uploadUrl = await customer.as.mutation(api.files.generateUploadUrl, {});

    const first = await post(t, uploadUrl, PNG_BYTES); // sent by anyone: the file is the URL's owner's
    expect(first.status).toBe(200);
    expect(first.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    const { storageId } = (await first.json()) as { storageId: string };
    const grant = await t.run(async (ctx) => (await ctx.db.query("uploadGrants").collect())[0]);
    expect(grant).toMatchObject({ storageId, userId: customer.userId });
    expect((await storedFiles(t)).map((f) => f._id)).toEqual([storageId]);

    const again = await post(t, uploadUrl, PNG_BYTES);
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ code: "UPLOAD_URL_INVALID" });
    expect(await storedFiles(t)).toHaveLength(1);
  });

  test("the browser's preflight is answered", async () => {
    const t = newTest();
    const response = await t.fetch("/api/uploads?grant=x", {
      method: "OPTIONS",
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe("content-type");
  });

  test("an unknown, missing or expired grant stores nothing", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const uploadUrl = await customer.as.mutation(api.files.generateUploadUrl, {});
    await t.run(async (ctx) => {
      const grant = (await ctx.db.query("uploadGrants").collect())[0];
      await ctx.db.patch("uploadGrants", grant._id, { expiresAt: Date.now() - 1 });
    });
    for (const url of [
      uploadUrl,
      uploadUrl.replace(/grant=.*/, "grant=0123456789abcdef0123456789abcdef"),
      uploadUrl.replace(/\?.*/, ""),
    ]) {
      const response = await post(t, url, PNG_BYTES);
      expect(response.status, url).toBe(403);
    }
    expect(await storedFiles(t)).toEqual([]);
  });

  test("a file that is not an image, or over 5 MB, is refused before it is stored; the URL stays usable", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    const uploadUrl = await customer.as.mutation(api.files.generateUploadUrl, {});
    const pdf = await post(t, uploadUrl, new TextEncoder().encode("%PDF-1.7 not an image"));
    expect(pdf.status).toBe(415);
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG_BYTES);
    expect((await post(t, uploadUrl, big)).status).toBe(413);
    expect(await storedFiles(t)).toEqual([]);
    expect((await post(t, uploadUrl, PNG_BYTES)).status).toBe(200);
  });

  test("a visitor's sign-up uploads through it and attaches the file", async () => {
    const t = newTest();
    const params = await customerSignUp(t, "uploader@example.np");
    const uploadUrl = await t.mutation(api.files.generateUploadUrl, { draft: params.draft });
    const { storageId } = (await (await post(t, uploadUrl, PNG_BYTES)).json()) as {
      storageId: string;
    };
    const result = await t.action(api.auth.signIn, {
      provider: "customer",
      params: { ...params, photo: storageId },
    });
    expect(result.tokens?.token).toBeTypeOf("string");
    const user = await t.run((ctx) =>
      ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "uploader@example.np"))
        .unique(),
    );
    expect(user?.photo).toBe(storageId);
  });

  describe("the quota of files not attached yet", () => {
    /** A PNG of `size` bytes (its header, then padding). */
    const png = (size: number) => {
      const bytes = new Uint8Array(size);
      bytes.set(PNG_BYTES);
      return bytes;
    };
    const uploadAs = async (as: { mutation: TestConvex["mutation"] }, size: number) =>
      await post(t, await as.mutation(api.files.generateUploadUrl, {}), png(size));
    let t: TestConvex;

    test("an uploader holds at most 30 MB unattached; more is refused and not stored, others still upload", async () => {
      t = newTest();
      const flooder = await insertCustomer(t);
      const fits = PENDING_UPLOADS.perUploader.bytes / MAX_IMAGE_BYTES;
      for (let i = 0; i < fits; i++)
        expect((await uploadAs(flooder.as, MAX_IMAGE_BYTES)).status).toBe(200);
      const over = await uploadAs(flooder.as, MAX_IMAGE_BYTES);
      expect(over.status).toBe(413);
      expect(await over.json()).toMatchObject({ code: "UPLOAD_QUOTA_FULL" });
      expect((await uploadAs(flooder.as, 1000)).status).toBe(413);
      expect(await storedFiles(t)).toHaveLength(fits);

      const other = await insertCustomer(t, "Hari Thapa");
      expect((await uploadAs(other.as, MAX_IMAGE_BYTES)).status).toBe(200);

      // an attached file no longer counts
      const first = (await storedFiles(t))[0]._id;
      const userId = flooder.userId;
      await t.run((ctx) => attachOwnFile(ctx, first, "Profile photo", { userId }, userId));
      expect((await uploadAs(flooder.as, MAX_IMAGE_BYTES)).status).toBe(200);
    });

    test("an uploader holds at most 12 files unattached, however small", async () => {
      t = newTest();
      const flooder = await insertCustomer(t);
      for (let i = 0; i < PENDING_UPLOADS.perUploader.files; i++)
        expect((await uploadAs(flooder.as, 100)).status).toBe(200);
      expect((await uploadAs(flooder.as, 100)).status).toBe(413);
    });

    test("everyone's unattached files together have a ceiling", async () => {
      t = newTest();
      const customer = await insertCustomer(t);
      const { everyone } = PENDING_UPLOADS;
      // others' files fill all but 1 MB of the shared ceiling
      await t.run(async (ctx) => {
        const storageId = await ctx.storage.store(new Blob([PNG_BYTES]));
        const share = Math.floor((everyone.bytes - 1024 * 1024) / 100);
        for (let i = 0; i < 100; i++)
          await ctx.db.insert("uploadGrants", { expiresAt: 0, storageId, bytes: share });
      });
      const big = await uploadAs(customer.as, 2 * 1024 * 1024);
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({
        code: "UPLOAD_QUOTA_FULL",
        message: "Too many uploaded files are waiting to be used; please try again later.",
      });
      expect((await uploadAs(customer.as, 1000)).status).toBe(200);
    });

    test("a declared length over 5 MB is refused before the body is read", async () => {
      t = newTest();
      const customer = await insertCustomer(t);
      const uploadUrl = await customer.as.mutation(api.files.generateUploadUrl, {});
      const url = new URL(uploadUrl);
      const response = await t.fetch(`${url.pathname}${url.search}`, {
        method: "POST",
        headers: { "Content-Type": "image/png", "Content-Length": String(MAX_IMAGE_BYTES + 1) },
        body: PNG_BYTES as BodyInit,
      });
      expect(response.status).toBe(413);
      expect(await storedFiles(t)).toEqual([]);
    });
  });
});
