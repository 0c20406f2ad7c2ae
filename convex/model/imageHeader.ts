/**
 * The type, width and height an image's header declares, read strictly: PNG's IHDR chunk (with its
 * CRC), JPEG's frame header (SOFn) reached by walking its segments from the start, GIF's logical
 * screen followed by a real first block, WebP's VP8, VP8L or VP8X header. Bytes that only begin like
 * an image decode to null. Only the header is read; the pixels are not.
 *
 * (image-size reads more formats but forgives more: its JPEG reader skips bytes that are not a marker
 * and takes any later FF C0 as the frame header, and it takes any "GIF89a" for a GIF, so a file of
 * magic bytes and noise often gets a size.)
 */

export type ImageType = "image/jpeg" | "image/png" | "image/webp" | "image/gif";
export type ImageHeader = { type: ImageType; width: number; height: number };

const ascii = (b: Uint8Array, from: number, to: number) =>
  b.length < to ? "" : String.fromCharCode(...b.subarray(from, to));
const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i] << 24) | (b[i + 1] << 16) | u16be(b, i + 2)) >>> 0;
const u32le = (b: Uint8Array, i: number) => (u24le(b, i) | (b[i + 3] << 24)) >>> 0;

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The bit depths PNG allows for each colour type. */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

function png(b: Uint8Array): ImageHeader | null {
  // signature, then the IHDR chunk: length 13, "IHDR", width, height, depth, colour, 0, 0, interlace, CRC
  if (b.length < 33 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return null;
  if (u32be(b, 8) !== 13 || ascii(b, 12, 16) !== "IHDR") return null;
  if (!(PNG_DEPTHS[b[25]] ?? []).includes(b[24])) return null;
  if (b[26] !== 0 || b[27] !== 0 || b[28] > 1) return null;
  if (crc32(b.subarray(12, 29)) !== u32be(b, 29)) return null;
  return { type: "image/png", width: u32be(b, 16), height: u32be(b, 20) };
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames. */
const isFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(b: Uint8Array): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  for (;;) {
    if (i + 1 >= b.length || b[i] !== 0xff) return null;
    while (b[i] === 0xff && i + 1 < b.length) i++; // fill bytes before a marker
    const marker = b[i++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    // another start, the end, or scan data before any frame header: not an image
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null;
    if (i + 2 > b.length) return null;
    const length = u16be(b, i);
    if (length < 2) return null;
    if (isFrame(marker)) {
      if (i + 8 > b.length) return null;
      const components = b[i + 7];
      if (length !== 8 + 3 * components || ![1, 3, 4].includes(components)) return null;
      return { type: "image/jpeg", width: u16be(b, i + 5), height: u16be(b, i + 3) };
    }
    i += length;
  }
}

function gif(b: Uint8Array): ImageHeader | null {
  const version = ascii(b, 0, 6);
  if (version !== "GIF87a" && version !== "GIF89a") return null;
  if (b.length < 14) return null;
  const packed = b[10];
  const colours = packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
  // the logical screen descriptor is followed by an extension (0x21) or an image (0x2C)
  const next = b[13 + colours];
  if (next !== 0x21 && next !== 0x2c) return null;
  return { type: "image/gif", width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): ImageHeader | null {
  if (ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 12) !== "WEBP" || b.length < 30) return null;
  if (u32le(b, 4) < 22) return null;
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8 ") {
    // a key frame (bit 0 of the frame tag clear), its start code, then 14-bit width and height
    if ((b[20] & 1) !== 0 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { type: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    // signature 0x2F, then width-1 and height-1 in 14 bits each and a 3-bit version, which is 0
    if (b[20] !== 0x2f || b[24] >> 5 !== 0) return null;
    const bits = u32le(b, 21);
    return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    if (u32le(b, 16) !== 10) return null;
    return { type: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** How many of a file's first bytes decodeImageHeader reads: JPEG metadata may come before its frame header. */
export const HEADER_BYTES = 512 * 1024;

/** The header of a JPEG, PNG, WebP or GIF image, or null when the bytes do not begin with a valid one. */
export function decodeImageHeader(bytes: Uint8Array): ImageHeader | null {
  return png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? webp(bytes);
}
