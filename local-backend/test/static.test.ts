import { mkdirSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticServer } from "../static.ts";
import { removeTempDataDirs, tempDataDir } from "./helpers.ts";

describe("static server (--serve)", () => {
  const js = `console.log(${JSON.stringify("x".repeat(2000))});`;
  let origin = "";
  let server: ReturnType<typeof createStaticServer>;
  beforeAll(async () => {
    const root = tempDataDir();
    mkdirSync(path.join(root, "assets"));
    writeFileSync(path.join(root, "index.html"), "<!doctype html><div id=root></div>");
    writeFileSync(path.join(root, "assets", "app-abc.js"), js);
    writeFileSync(path.join(root, "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    server = createStaticServer(root);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    removeTempDataDirs();
  });

  const get = (p: string, encoding?: string) =>
    new Promise<{
      status: number;
      headers: Record<string, string | string[] | undefined>;
      body: Buffer;
    }>((resolve, reject) => {
      // node:http, not fetch: fetch would decompress and hide Content-Encoding handling.
      httpGet(origin + p, { headers: encoding ? { "Accept-Encoding": encoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      }).on("error", reject);
    });

  it("forbids framing on every answer, errors included", async () => {
    for (const target of ["/", "/assets/app-abc.js", "/some/route", "/assets/gone.js", "/%"]) {
      const res = await get(target);
      expect(res.headers["x-frame-options"], target).toBe("DENY");
      expect(res.headers["content-security-policy"], target).toBe("frame-ancestors 'none'");
    }
  });

  it("compresses text with brotli or gzip as accepted, plain otherwise", async () => {
    const br = await get("/assets/app-abc.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(brotliDecompressSync(br.body).toString()).toBe(js);
    const gz = await get("/assets/app-abc.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(js);
    expect(gz.body.length).toBeLessThan(js.length / 5);
    const plain = await get("/assets/app-abc.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
  });

  it("serves index.html for client routes and leaves binary files uncompressed", async () => {
    const page = await get("/services/search?location=Nepalgunj", "gzip");
    expect(page.status).toBe(200);
    expect(gunzipSync(page.body).toString()).toContain("id=root");
    const png = await get("/assets/logo.png", "gzip, br");
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect((await get("/assets/missing.js", "gzip")).status).toBe(404);
  });
});
