const CHUNK_BYTES = 64 * 1024;

/** What the window reads from: an open file, or a file already in memory. */
export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** A small file read whole, served to readLineWindow without further file-system calls. */
export function memorySource(data: Buffer): ByteSource {
  return {
    async read(buffer, offset, length, position) {
      return { bytesRead: data.copy(buffer, offset, position, Math.min(data.length, position + length)) };
    },
  };
}

export interface WindowLimits {
  /** Longer lines are cut to this many characters, with a marker. */
  maxLineChars: number;
  /** The window stops early rather than grow past this many bytes of text. */
  maxBytes: number;
}

export interface LineWindow {
  lines: string[];
  /** 1-based number of the first line returned (0 when none). */
  startLine: number;
  endLine: number;
  totalLines: number;
  /** How many of the returned lines were cut to maxLineChars. */
  cutLines: number;
}

/**
 * Reads `count` lines starting at 1-based line `first`, streaming the file in chunks: lines before
 * the window are skipped without decoding, lines after it are only counted, and no line keeps more
 * than a bounded number of bytes, so a small window of a huge file costs little memory.
 * `first = Infinity` only counts the lines. The caller owns `source`; reading starts at offset 0.
 */
export async function readLineWindow(
  source: ByteSource,
  first: number,
  count: number,
  limits: WindowLimits,
): Promise<LineWindow> {
  // Enough bytes for maxLineChars characters of any UTF-8 text, plus the decision that it was cut.
  const keepBytes = limits.maxLineChars * 4 + 4;
  const lines: string[] = [];
  let windowBytes = 0;
  let cutLines = 0;
  let full = count <= 0;
  let line = 1;
  let pieces: Buffer[] = [];
  let kept = 0;
  let lastByte = -1;

  const finishLine = () => {
    const raw = Buffer.concat(pieces).toString("utf8");
    pieces = [];
    kept = 0;
    let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
    // A line that hit keepBytes always has more than maxLineChars characters, so this catches it.
    if (text.length > limits.maxLineChars) {
      text = `${text.slice(0, limits.maxLineChars)}... [line cut at ${limits.maxLineChars} characters]`;
      cutLines++;
    }
    const size = Buffer.byteLength(text) + 1;
    if (lines.length > 0 && windowBytes + size > limits.maxBytes) {
      full = true;
      return;
    }
    lines.push(text);
    windowBytes += size;
    if (lines.length >= count) full = true;
  };

  let newlines = 0;
  let position = 0;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await source.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    lastByte = data[bytesRead - 1] ?? -1;
    // A short read of a regular file is its end: no extra read just to learn that.
    const atEnd = bytesRead < CHUNK_BYTES;
    if (full) {
      newlines += countNewlines(data);
      if (atEnd) break;
      continue;
    }
    let pos = 0;
    while (pos < bytesRead) {
      const nl = data.indexOf(10, pos);
      const end = nl === -1 ? bytesRead : nl;
      const inWindow = !full && line >= first;
      if (inWindow && kept < keepBytes) {
        const take = data.subarray(pos, Math.min(end, pos + keepBytes - kept));
        pieces.push(Buffer.from(take));
        kept += take.length;
      }
      if (nl === -1) break;
      newlines++;
      if (inWindow) finishLine();
      line++;
      pos = nl + 1;
      if (full) {
        newlines += countNewlines(data.subarray(pos));
        break;
      }
    }
    if (atEnd) break;
  }
  const unterminated = lastByte !== -1 && lastByte !== 10;
  if (unterminated && !full && line >= first) finishLine();
  const totalLines = newlines + (unterminated ? 1 : 0);
  const startLine = lines.length > 0 ? first : 0;
  return {
    lines,
    startLine,
    endLine: lines.length > 0 ? first + lines.length - 1 : 0,
    totalLines,
    cutLines,
  };
}

function countNewlines(data: Buffer): number {
  let n = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) n++;
  return n;
}
