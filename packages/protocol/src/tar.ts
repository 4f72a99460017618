/**
 * The tar format uploads may use (POSIX ustar, with a PAX header for long or non-ASCII names): the
 * browser packs files dropped on the file tree into it without reading them into memory (headers,
 * then the File objects themselves, in one Blob), and tests make archives with it. Writing only;
 * unpacking happens in a container (apps/sandbox/src/imports/unpack.py).
 */

export type TarEntryType = "file" | "hardlink" | "symlink" | "char" | "block" | "dir" | "fifo";

export interface TarEntry {
  name: string;
  type: TarEntryType;
  /** Bytes of content that follow the header (files only). */
  size?: number;
  mode?: number;
  /** The target of a symlink or hard link. */
  linkname?: string;
  /** Seconds since the epoch. */
  mtime?: number;
}

export const TAR_BLOCK = 512;

const TYPE_FLAG: Record<TarEntryType, string> = {
  file: "0",
  hardlink: "1",
  symlink: "2",
  char: "3",
  block: "4",
  dir: "5",
  fifo: "6",
};

/** The largest size the 11 octal digits of a ustar header hold. */
const MAX_OCTAL_SIZE = 8 ** 11 - 1;

const encoder = new TextEncoder();

function octal(header: Uint8Array, offset: number, length: number, value: number): void {
  const digits = Math.floor(value)
    .toString(8)
    .padStart(length - 1, "0");
  header.set(encoder.encode(digits.slice(-(length - 1))), offset);
}

function ustarHeader(
  entry: TarEntry,
  name: string,
  linkname: string,
  size: number,
  type: string,
): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(TAR_BLOCK);
  header.set(encoder.encode(name).subarray(0, 100), 0);
  octal(header, 100, 8, entry.mode ?? (entry.type === "dir" ? 0o755 : 0o644));
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, Math.min(size, MAX_OCTAL_SIZE));
  octal(header, 136, 12, entry.mtime ?? 0);
  header.set(encoder.encode(type), 156);
  header.set(encoder.encode(linkname).subarray(0, 100), 157);
  header.set(encoder.encode("ustar\u000000"), 257);
  // The checksum is computed with its own field as spaces.
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  octal(header, 148, 7, sum);
  header[155] = 0x20;
  return header;
}

/** One PAX record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bytes = encoder.encode(body).length;
  let length = bytes + String(bytes).length;
  if (String(length).length !== String(bytes).length) length += 1;
  return `${length}${body}`;
}

function fits(text: string): boolean {
  return encoder.encode(text).length <= 100 && /^[\x20-\x7e]*$/.test(text);
}

/** The header block(s) of one entry; its content (padded by `tarPadding`) follows them. */
export function tarHeader(entry: TarEntry): Uint8Array<ArrayBuffer> {
  const size = entry.type === "file" ? (entry.size ?? 0) : 0;
  const linkname = entry.linkname ?? "";
  const records = [
    ...(fits(entry.name) ? [] : [paxRecord("path", entry.name)]),
    ...(fits(linkname) ? [] : [paxRecord("linkpath", linkname)]),
    ...(size > MAX_OCTAL_SIZE ? [paxRecord("size", String(size))] : []),
  ].join("");
  const main = ustarHeader(entry, entry.name, linkname, size, TYPE_FLAG[entry.type]);
  if (!records) return main;
  const pax = encoder.encode(records);
  const paxHeader = ustarHeader({ name: "PaxHeader", type: "file" }, "PaxHeader", "", pax.length, "x");
  const out = new Uint8Array(TAR_BLOCK + pax.length + tarPadding(pax.length).length + TAR_BLOCK);
  out.set(paxHeader, 0);
  out.set(pax, TAR_BLOCK);
  out.set(main, out.length - TAR_BLOCK);
  return out;
}

/** Zeros from the end of `size` bytes of content to the next block boundary. */
export function tarPadding(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array((TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK);
}

/** Two zero blocks end an archive. */
export function tarEnd(): Uint8Array<ArrayBuffer> {
  return new Uint8Array(2 * TAR_BLOCK);
}
