// Test support: archives made byte by byte, so tests can put in what no well-behaved tool writes
// (entries that climb out, links pointing away, devices, sizes that lie).
import { deflateRawSync, gzipSync } from "node:zlib";
import { type TarEntryType, tarEnd, tarHeader, tarPadding } from "@coder/protocol";

export interface ArchiveEntry {
  name: string;
  type?: TarEntryType;
  content?: string | Buffer;
  mode?: number;
  linkname?: string;
}

export function tar(entries: ArchiveEntry[]): Buffer {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? "");
    const type = entry.type ?? "file";
    parts.push(
      tarHeader({ name: entry.name, type, size: content.length, mode: entry.mode, linkname: entry.linkname }),
    );
    if (type === "file") parts.push(content, tarPadding(content.length));
  }
  parts.push(tarEnd());
  return Buffer.concat(parts);
}

export function tarGz(entries: ArchiveEntry[]): Buffer {
  return gzipSync(tar(entries));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  content?: string | Buffer;
  /** Unix mode with its type bits (0o120777 makes a symlink whose content is the target). */
  mode?: number;
  deflate?: boolean;
}

/** A zip written the way Info-ZIP does on Unix (mode in the high half of the external attributes). */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.content ?? "");
    const stored = entry.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(entry.name);
    const mode = entry.mode ?? (entry.name.endsWith("/") ? 0o40755 : 0o100644);
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0); // version needed
    common.writeUInt16LE(0x0800, 2); // UTF-8 names
    common.writeUInt16LE(entry.deflate ? 8 : 0, 4);
    common.writeUInt32LE(0, 6); // time, date
    common.writeUInt32LE(crc32(data), 10);
    common.writeUInt32LE(stored.length, 14);
    common.writeUInt32LE(data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24); // extra
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), common, name, stored]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    common.copy(central, 6, 0, 26);
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local);
    centrals.push(Buffer.concat([central, name]));
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
