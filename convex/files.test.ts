import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { sniffImageType } from "./model/files";
import { everyKindOfCaller, newTest } from "./test.setup";

describe("files:generateUploadUrl", () => {
  test("open to everyone, visitors included (documents are uploaded before sign-up)", async () => {
    const t = newTest();
    for (const as of Object.values(await everyKindOfCaller(t))) {
      expect(await as.mutation(api.files.generateUploadUrl, {})).toMatch(/^https?:/);
    }
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
