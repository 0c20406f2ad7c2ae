import { describe, expect, test } from "vitest";
import { decodeImageHeader } from "./imageHeader";

const base64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};
const u32le = (n: number) => new Uint8Array([n, n >> 8, n >> 16, n >>> 24]);

/** 3 × 2 images as Chromium encodes them (canvas.toDataURL), and a 1 × 1 GIF. */
const REAL = {
  png: base64(
    "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAF0lEQVR4AWJiAIIDltr/QZgJRAD5YAQAAAD//4ZjVU8AAAAGSURBVAMAYJoGboGQSpIAAAAASUVORK5CYII=",
  ),
  jpeg: base64(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCUAHVPf//Z",
  ),
  // VP8X (an ICC profile) with a VP8 (lossy) or VP8L (lossless) image
  webpLossy: base64(
    "UklGRiwCAABXRUJQVlA4WAoAAAAwAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZBTFBIBwAAAAAA//////8AVlA4IC4AAADwAQCdASoDAAIAAUAmJaACdLoB+AAETAAA/u9RL/vvQG8n//aWfpWPpWP4VAAA",
  ),
  webpLossless: base64(
    "UklGRgACAABXRUJQVlA4WAoAAAAgAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDhMEQAAAC8CQAAAB9CcAnel/4GI6H8AAA==",
  ),
  gif: base64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"),
};

/** The simple WebP format: RIFF, WEBP and the image chunk alone (taken from an extended file). */
function simpleWebp(extended: Uint8Array, chunk: "VP8 " | "VP8L"): Uint8Array {
  const text = String.fromCharCode(...extended);
  const body = extended.subarray(text.indexOf(chunk));
  return join(ascii("RIFF"), u32le(4 + body.length), ascii("WEBP"), body);
}

describe("decodeImageHeader", () => {
  test("reads type, width and height from real JPEG, PNG, GIF and WebP (VP8, VP8L, VP8X) files", () => {
    const three = { width: 3, height: 2 };
    expect(decodeImageHeader(REAL.png)).toEqual({ type: "image/png", ...three });
    expect(decodeImageHeader(REAL.jpeg)).toEqual({ type: "image/jpeg", ...three });
    expect(decodeImageHeader(REAL.gif)).toEqual({ type: "image/gif", width: 1, height: 1 });
    expect(decodeImageHeader(REAL.webpLossy)).toEqual({ type: "image/webp", ...three });
    for (const [file, chunk] of [
      [REAL.webpLossy, "VP8 "],
      [REAL.webpLossless, "VP8L"],
    ] as const)
      expect(decodeImageHeader(simpleWebp(file, chunk)), chunk).toEqual({
        type: "image/webp",
        ...three,
      });
  });

  test("magic bytes followed by noise are not an image", () => {
    const noise = (magic: Uint8Array) => {
      const bytes = new Uint8Array(64 * 1024);
      let seed = 7;
      for (let i = 0; i < bytes.length; i++) bytes[i] = seed = (seed * 1103515245 + 12345) & 0xff;
      bytes.set(magic);
      return bytes;
    };
    expect(decodeImageHeader(noise(REAL.png.subarray(0, 8)))).toBeNull();
    expect(decodeImageHeader(noise(REAL.jpeg.subarray(0, 4)))).toBeNull();
    expect(decodeImageHeader(noise(ascii("GIF89a")))).toBeNull();
    expect(decodeImageHeader(noise(REAL.webpLossy.subarray(0, 16)))).toBeNull();
    expect(decodeImageHeader(new Uint8Array(5 * 1024 * 1024).fill(0xff))).toBeNull();
  });

  test("a header cut short is not an image", () => {
    // each just before the last byte its header needs (JPEG: inside its frame header)
    const cuts = { png: 32, jpeg: REAL.jpeg.indexOf(0xc0, 600) + 8, gif: 19, webpLossy: 29 };
    for (const [name, cut] of Object.entries(cuts)) {
      const file = REAL[name as keyof typeof cuts];
      expect(decodeImageHeader(file.subarray(0, cut + 1)), name).not.toBeNull();
      expect(decodeImageHeader(file.subarray(0, cut)), name).toBeNull();
    }
    expect(decodeImageHeader(new Uint8Array())).toBeNull();
  });

  test("a PNG header whose checksum or fields were changed is not an image", () => {
    const forged = REAL.png.slice();
    forged[19] = 0x40; // width 64, CRC unchanged
    expect(decodeImageHeader(forged)).toBeNull();
    const depth = REAL.png.slice();
    depth[24] = 3; // 3-bit RGBA does not exist
    expect(decodeImageHeader(depth)).toBeNull();
  });

  test("a JPEG whose scan starts before any frame header is not an image", () => {
    const sos = join(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 8]), new Uint8Array(6));
    expect(decodeImageHeader(sos)).toBeNull();
  });

  test("something else is not an image", () => {
    for (const text of ["%PDF-1.7", "<svg xmlns=", "RIFF\x00\x00\x00\x00WAVE", "GIF89"])
      expect(decodeImageHeader(ascii(text)), text).toBeNull();
  });
});
