import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../_generated/api";
import { MAX_IMAGE_BYTES } from "../model/files";
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

/** POSTs bytes to an upload URL files:generateUploadUrl handed out (its path on the site). */
function post(t: TestConvex, uploadUrl: string, body: Uint8Array, type = "image/png") {
  const url = new URL(uploadUrl);
  return t.fetch(`${url.pathname}${url.search}`, {
    method: "POST",
    headers: { "Content-Type": type, Origin: ORIGIN },
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
});
