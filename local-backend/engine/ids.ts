// Document ids in Convex's own format (the "v6" ids of crates/value/src/id_v6.rs):
//
//   bytes  = varint(table number) ++ internal id (16 bytes) ++ footer (2 bytes, little-endian)
//   footer = fletcher16(varint ++ internal id) XOR version (0)
//   id     = bytes in lowercase Crockford base32, most significant bit first, no padding
//
// A string is an id only if it is the canonical encoding of such bytes: 31 to 37 characters, a
// non-zero table number in at most five varint bytes, nothing after the footer, and a matching
// checksum. The table number says which table the id belongs to (see durability/table-numbers.ts).
import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CHAR_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) CHAR_VALUES[ALPHABET.charCodeAt(i)] = i;

export const INTERNAL_ID_BYTES = 16;
const FOOTER_BYTES = 2;
const VERSION = 0;
const MAX_VARINT_BYTES = 5;
/** Encoded lengths of the shortest (1-byte table number) and longest (5-byte) ids. */
export const MIN_ID_LENGTH = base32Length(1 + INTERNAL_ID_BYTES + FOOTER_BYTES);
export const MAX_ID_LENGTH = base32Length(MAX_VARINT_BYTES + INTERNAL_ID_BYTES + FOOTER_BYTES);
export const MAX_TABLE_NUMBER = 0xffff_ffff;

function base32Length(bytes: number): number {
  return Math.ceil((bytes * 8) / 5);
}

export function encodeVarint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** The unsigned 32-bit integer at the start of `bytes` and how many bytes it took, or null. */
export function decodeVarint(bytes: Uint8Array): { n: number; length: number } | null {
  let n = 0;
  for (let i = 0; i < MAX_VARINT_BYTES && i < bytes.length; i++) {
    n += (bytes[i] & 0x7f) * 2 ** (7 * i);
    if (bytes[i] < 0x80) return n > MAX_TABLE_NUMBER ? null : { n, length: i + 1 };
  }
  return null;
}

function fletcher16(bytes: Uint8Array, length: number): number {
  let c0 = 0;
  let c1 = 0;
  for (let i = 0; i < length; i++) {
    c0 = (c0 + bytes[i]) & 0xff;
    c1 = (c1 + c0) & 0xff;
  }
  return (c1 << 8) | c0;
}

function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 0x1f];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 0x1f];
  return out;
}

/** The whole bytes `text` encodes (trailing bits dropped), or null for a character outside the alphabet. */
function base32Decode(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? CHAR_VALUES[code] : -1;
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

export function encodeId(tableNumber: number, internalId: Uint8Array): string {
  if (!Number.isInteger(tableNumber) || tableNumber < 1 || tableNumber > MAX_TABLE_NUMBER)
    throw new RangeError(`table number out of range: ${tableNumber}`);
  if (internalId.length !== INTERNAL_ID_BYTES)
    throw new RangeError(`internal id must be ${INTERNAL_ID_BYTES} bytes`);
  const varint = encodeVarint(tableNumber);
  const bytes = new Uint8Array(varint.length + INTERNAL_ID_BYTES + FOOTER_BYTES);
  bytes.set(varint);
  bytes.set(internalId, varint.length);
  const footer = fletcher16(bytes, varint.length + INTERNAL_ID_BYTES) ^ VERSION;
  bytes[bytes.length - 2] = footer & 0xff;
  bytes[bytes.length - 1] = footer >> 8;
  return base32Encode(bytes);
}

export interface DecodedId {
  tableNumber: number;
  internalId: Uint8Array;
}

/** The table number and internal id `text` encodes, or why it is not an id. */
export function decodeId(text: string): DecodedId | { error: string } {
  // Length first: a long string is refused without decoding it.
  if (text.length < MIN_ID_LENGTH || text.length > MAX_ID_LENGTH)
    return { error: `Invalid ID length ${text.length}` };
  const bytes = base32Decode(text);
  if (bytes === null) return { error: "ID wasn't valid base32" };
  const varint = decodeVarint(bytes);
  if (varint === null || varint.n === 0) return { error: "Invalid table number" };
  const end = varint.length + INTERNAL_ID_BYTES;
  if (bytes.length !== end + FOOTER_BYTES) return { error: `Invalid ID length ${text.length}` };
  const footer = bytes[end] | (bytes[end + 1] << 8);
  if (footer !== (fletcher16(bytes, end) ^ VERSION)) return { error: "Invalid checksum" };
  const decoded = { tableNumber: varint.n, internalId: bytes.slice(varint.length, end) };
  // One string per id: non-zero padding bits or an overlong varint make another spelling of it.
  if (encodeId(decoded.tableNumber, decoded.internalId) !== text)
    return { error: "Non-canonical ID encoding" };
  return decoded;
}

// tableNumberOf runs on every document read: it checks what decodeId checks in one pass over the
// characters, into a buffer it reuses, without building the id's bytes or spelling it anew.
const scratch = new Uint8Array(Math.floor((MAX_ID_LENGTH * 5) / 8));

/**
 * Table numbers of ids decoded lately: results and documents name the same ids again and again. A
 * string's hash is a few nanoseconds; decoding and checking the id is a microsecond.
 */
const recentNumbers = new Map<string, number>();
/** Ids remembered at most (about 1 MB); the memory starts afresh when full. */
export const RECENT_IDS = 8192;

/** The table number of a valid id, or null: `decodeId(text).tableNumber` without its allocations. */
export function tableNumberOf(text: string): number | null {
  const known = recentNumbers.get(text);
  if (known !== undefined) return known;
  const n = decodeTableNumber(text);
  if (n !== null) {
    if (recentNumbers.size >= RECENT_IDS) recentNumbers.clear();
    recentNumbers.set(text, n);
  }
  return n;
}

function decodeTableNumber(text: string): number | null {
  const length = text.length;
  if (length < MIN_ID_LENGTH || length > MAX_ID_LENGTH) return null;
  let buffer = 0;
  let bits = 0;
  let size = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? CHAR_VALUES[code] : -1;
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      scratch[size++] = (buffer >> bits) & 0xff;
    }
  }
  // The one spelling of these bytes: as few characters as they need, padding bits zero.
  if (base32Length(size) !== length || (buffer & ((1 << bits) - 1)) !== 0) return null;
  let n = 0;
  let varintLength = 0;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const byte = scratch[i];
    n += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) {
      // a last byte of zero after others spells a shorter varint's number
      if (byte === 0 && i > 0) return null;
      varintLength = i + 1;
      break;
    }
  }
  if (varintLength === 0 || n === 0 || n > MAX_TABLE_NUMBER) return null;
  const end = varintLength + INTERNAL_ID_BYTES;
  if (size !== end + FOOTER_BYTES) return null;
  const footer = scratch[end] | (scratch[end + 1] << 8);
  return footer === (fletcher16(scratch, end) ^ VERSION) ? n : null;
}

// Random bytes are drawn from the OS in batches: one call per id costs more than the rest of an insert's id.
const RANDOM_BYTES = INTERNAL_ID_BYTES - 2;
const pool = new Uint8Array(RANDOM_BYTES * 256);
let poolOffset = pool.length;

/**
 * A fresh internal id as Convex makes them: 14 random bytes (crypto) and the day since the epoch
 * in 2 bytes, big-endian.
 */
export function newInternalId(now = Date.now()): Uint8Array {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = new Uint8Array(INTERNAL_ID_BYTES);
  id.set(pool.subarray(poolOffset, poolOffset + RANDOM_BYTES));
  poolOffset += RANDOM_BYTES;
  const day = Math.floor(now / 86_400_000);
  id[RANDOM_BYTES] = (day >> 8) & 0xff;
  id[RANDOM_BYTES + 1] = day & 0xff;
  return id;
}
