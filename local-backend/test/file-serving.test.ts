// Stored files can never run as pages of the backend's origin.
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMediaType, parseMediaType } from "../media-type.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

const GIF_WITH_SCRIPT = new TextEncoder().encode(
  "GIF89a<html><script>document.title='pwned'</script></html>",
);
const SAFE = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
};

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url);
});
afterAll(closeTestBackends);

async function upload(contentType: string | null) {
  const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
  return await fetch(uploadUrl, {
    method: "POST",
    headers: contentType === null ? {} : { "Content-Type": contentType },
    body: GIF_WITH_SCRIPT,
  });
}

async function served(storageId: string) {
  const res = await fetch(await http.query(anyApi.files.url, { storageId }));
  return {
    status: res.status,
    headers: Object.fromEntries(
      [
        "content-type",
        "content-disposition",
        "x-content-type-options",
        "content-security-policy",
      ].map((name) => [name, res.headers.get(name)]),
    ),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

describe("uploads", () => {
  it("refuse a Content-Type that is not exactly one media type, as Convex does (400 BadHeader)", async () => {
    for (const type of [
      "image/gif;x=y, text/html",
      "image/gif, text/html",
      "image/gif;x",
      'image/gif;x="y',
      "gif",
      "image/",
      "/gif",
      "image/gif/x",
      "image/gif;=y",
    ]) {
      const res = await upload(type);
      expect([type, res.status]).toEqual([type, 400]);
      expect(await res.json()).toMatchObject({ code: "BadHeader" });
    }
  });

  it("store a well-formed type and serve only an allowed image inline, as exactly its type/subtype", async () => {
    const ids: Record<string, string> = {};
    for (const type of [
      "image/gif",
      'IMAGE/GIF; charset="x;y"',
      "image/webp",
      "text/html",
      "image/svg+xml",
      "application/pdf",
      "application/javascript",
    ]) {
      const res = await upload(type);
      expect([type, res.status]).toEqual([type, 200]);
      ids[type] = ((await res.json()) as { storageId: string }).storageId;
    }
    ids.none = ((await (await upload(null)).json()) as { storageId: string }).storageId;

    const inline = (type: string) => ({
      "content-type": type,
      "content-disposition": null,
      ...SAFE,
    });
    const download = (type = "application/octet-stream") => ({
      "content-type": type,
      "content-disposition": "attachment",
      ...SAFE,
    });
    expect((await served(ids["image/gif"])).headers).toEqual(inline("image/gif"));
    expect((await served(ids['IMAGE/GIF; charset="x;y"'])).headers).toEqual(inline("image/gif"));
    expect((await served(ids["image/webp"])).headers).toEqual(inline("image/webp"));
    expect((await served(ids["text/html"])).headers).toEqual(download());
    expect((await served(ids["image/svg+xml"])).headers).toEqual(download());
    expect((await served(ids["application/javascript"])).headers).toEqual(download());
    expect((await served(ids["application/pdf"])).headers).toEqual(download("application/pdf"));
    expect((await served(ids.none)).headers).toEqual(download());
    expect((await served(ids["text/html"])).bytes).toEqual(GIF_WITH_SCRIPT);
  });

  it("functions see the stored type on the _storage document and ctx.storage.get's Blob", async () => {
    const { storageId } = (await (await upload("Image/GIF")).json()) as { storageId: string };
    type Ctx = {
      storage: { get(id: string): Promise<Blob | null> };
      db: { system: { get(id: string): Promise<{ contentType?: string } | null> } };
    };
    const seen = await backend.engine.t.action(async (ctx: Ctx) => ({
      blobType: (await ctx.storage.get(storageId))?.type,
    }));
    const meta = await backend.engine.t.query(
      async (ctx: Ctx) => await ctx.db.system.get(storageId),
    );
    expect(seen).toEqual({ blobType: "image/gif" });
    expect(meta?.contentType).toBe("image/gif");
  });
});

describe("files stored by functions", () => {
  it("a hostile type given to ctx.storage.store (from an HTTP action's request) is served as a download", async () => {
    const res = await fetch(`${backend.siteUrl}/api/store`, {
      method: "POST",
      headers: { "Content-Type": "image/gif;x=y, text/html" },
      body: GIF_WITH_SCRIPT,
    });
    const { storageId } = (await res.json()) as { storageId: string };
    const file = await served(storageId);
    expect(file.headers).toEqual({
      "content-type": "application/octet-stream",
      "content-disposition": "attachment",
      ...SAFE,
    });
    expect(file.bytes).toEqual(GIF_WITH_SCRIPT);
  });

  it("a missing file's 404 is not sniffed either", async () => {
    const res = await fetch(`${backend.url}/api/storage/nothing?token=x`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("parseMediaType", () => {
  it("accepts one type/subtype with token or quoted parameters, and nothing else", () => {
    expect(parseMediaType(' Image/GIF ; A=b ;c="d;\\"e" ')).toEqual({
      essence: "image/gif",
      parameters: [
        ["a", "b"],
        ["c", 'd;"e'],
      ],
    });
    expect(formatMediaType(parseMediaType('text/plain; charset="utf 8"')!)).toBe(
      'text/plain; charset="utf 8"',
    );
    for (const bad of [
      "",
      "image",
      "image/gif;x=y, text/html",
      "image/gif text/html",
      'image/gif;x="y',
      'image/gif;x="y"z',
      "image/gif;x=y z",
      "im age/gif",
      "image/gif;x=",
    ]) {
      expect([bad, parseMediaType(bad)]).toEqual([bad, null]);
    }
  });
});
