// A minimal ZIP writer (deflate, no ZIP64) for snapshot exports: one file per table's documents and one
// per stored file, as Convex lays out its export archives.
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const LIMIT = 0xffffffff;

export function writeZip(entries: ZipEntry[]): Buffer {
  if (entries.length > 0xffff) throw new Error("More than 65,535 files: ZIP64 is not supported");
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    if (entry.data.length >= LIMIT || offset >= LIMIT)
      throw new Error("Export larger than 4 GiB: ZIP64 is not supported");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0x00210000, 10); // 00:00, 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(0x00210000, 12);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, compressed);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

export class ZipError extends Error {}

/**
 * The files of a ZIP archive (stored or deflated; no ZIP64), read from its central directory. At most
 * `maxEntries` files and `maxBytes` uncompressed in all: an archive claiming more is refused before
 * it is inflated.
 */
export function readZip(
  zip: Buffer,
  limits: { maxEntries: number; maxBytes: number },
): Map<string, Buffer> {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw new ZipError("Not a ZIP archive (no end of central directory)");
  const count = zip.readUInt16LE(end + 10);
  const directoryEnd = zip.readUInt32LE(end + 16) + zip.readUInt32LE(end + 12);
  if (count > limits.maxEntries) throw new ZipError(`More than ${limits.maxEntries} files`);
  if (directoryEnd > end) throw new ZipError("Damaged ZIP archive (central directory)");
  const files = new Map<string, Buffer>();
  let total = 0;
  let at = zip.readUInt32LE(end + 16);
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== 0x02014b50)
      throw new ZipError("Damaged ZIP archive (central directory entry)");
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    total += size;
    if (total > limits.maxBytes)
      throw new ZipError(`More than ${limits.maxBytes} bytes uncompressed`);
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50)
      throw new ZipError(`Damaged ZIP archive (${name})`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressedSize > zip.length) throw new ZipError(`Damaged ZIP archive (${name})`);
    const raw = zip.subarray(start, start + compressedSize);
    let data: Buffer;
    if (method === 0) data = raw;
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      } catch {
        throw new ZipError(`Damaged ZIP archive (${name} does not inflate to its size)`);
      }
    } else throw new ZipError(`${name}: compression method ${method} is not supported`);
    if (data.length !== size || crc32(data) !== crc)
      throw new ZipError(`Damaged ZIP archive (${name}: size or checksum)`);
    files.set(name, data);
  }
  return files;
}
