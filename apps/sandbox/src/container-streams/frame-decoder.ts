import { NamedError } from "../errors/named-error";
/** What a stream from a container did wrong; the connection it came on is dropped. */
export class FrameViolation extends NamedError {
  constructor(
    readonly kind: "header_too_long" | "bad_header" | "too_big" | "bad_message",
    message: string,
  ) {
    super(message);
  }
}

export interface FrameLimits {
  /** The header section, up to and including its blank line. */
  maxHeaderBytes: number;
  /** One message's body (its Content-Length). */
  maxMessageBytes: number;
}

/** LSP-style headers are a few dozen bytes; 8 KB leaves room for any extra header a server sends. */
export const MAX_FRAME_HEADER_BYTES = 8 * 1024;

const CR = 0x0d;
const LF = 0x0a;

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/**
 * Splits a byte stream framed with `Content-Length` headers (JSON-RPC over stdio) into message
 * bodies, holding at most one header and one body. Linear: every byte is looked at once, bodies are
 * kept as a list of slices and copied together once. The first violation is thrown and every later
 * push throws it again: the stream cannot be trusted any more.
 */
export class FrameDecoder {
  private failure: FrameViolation | undefined;
  private header: Buffer[] = [];
  private headerBytes = 0;
  /** How many bytes of `\r\n\r\n` the header has matched so far. */
  private matched = 0;
  /** Bytes still missing from the body being read; -1 while reading a header. */
  private remaining = -1;
  private body: Buffer[] = [];
  private bodyLength = 0;
  private bodyReceived = 0;

  constructor(private readonly limits: FrameLimits) {}

  /** Bytes held for the message in progress (never more than the two limits together). */
  get bufferedBytes(): number {
    return this.headerBytes + this.bodyReceived;
  }

  /** The bodies this chunk completes, in order. */
  push(chunk: Buffer): Buffer[] {
    if (this.failure) throw this.failure;
    try {
      return this.consume(chunk);
    } catch (error) {
      if (error instanceof FrameViolation) {
        this.failure = error;
        this.header = [];
        this.headerBytes = 0;
        this.body = [];
        this.bodyReceived = 0;
      }
      throw error;
    }
  }

  private consume(chunk: Buffer): Buffer[] {
    const bodies: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining < 0) {
        at = this.readHeader(chunk, at);
      } else {
        const take = Math.min(this.remaining, chunk.length - at);
        this.body.push(chunk.subarray(at, at + take));
        this.remaining -= take;
        this.bodyReceived += take;
        at += take;
      }
      if (this.remaining === 0) bodies.push(this.finishBody());
    }
    return bodies;
  }

  /** Scans the chunk for the end of the header section; returns where scanning stopped. */
  private readHeader(chunk: Buffer, start: number): number {
    // Never look further than the header may reach: a header without an end is cut off at the cap.
    const limit = Math.min(chunk.length, start + this.limits.maxHeaderBytes - this.headerBytes);
    let at = start;
    while (at < limit && this.matched < 4) {
      const byte = chunk[at++];
      const expected = this.matched % 2 === 0 ? CR : LF;
      if (byte === expected) this.matched++;
      else this.matched = byte === CR ? 1 : 0;
    }
    this.header.push(chunk.subarray(start, at));
    this.headerBytes += at - start;
    if (this.matched === 4) {
      this.startBody(this.parseHeader());
    } else if (this.headerBytes >= this.limits.maxHeaderBytes) {
      throw new FrameViolation(
        "header_too_long",
        `a message header ran past ${formatBytes(this.limits.maxHeaderBytes)} without ending`,
      );
    }
    return at;
  }

  /** The Content-Length of the completed header section. */
  private parseHeader(): number {
    const text = Buffer.concat(this.header, this.headerBytes).toString("latin1");
    this.header = [];
    this.headerBytes = 0;
    this.matched = 0;
    let length: number | undefined;
    for (const line of text.slice(0, -4).split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new FrameViolation("bad_header", "a message header line has no name");
      if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
      const value = line.slice(colon + 1).trim();
      if (length !== undefined || !/^\d{1,15}$/.test(value))
        throw new FrameViolation("bad_header", "a message header has a bad Content-Length");
      length = Number(value);
    }
    if (length === undefined)
      throw new FrameViolation("bad_header", "a message header has no Content-Length");
    if (length > this.limits.maxMessageBytes)
      throw new FrameViolation(
        "too_big",
        `a message announced ${length} bytes, more than ${formatBytes(this.limits.maxMessageBytes)}`,
      );
    return length;
  }

  private startBody(length: number): void {
    this.remaining = length;
    this.bodyLength = length;
  }

  private finishBody(): Buffer {
    const parts = this.body;
    const body = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, this.bodyLength);
    this.body = [];
    this.bodyLength = 0;
    this.bodyReceived = 0;
    this.remaining = -1;
    return body;
  }
}
