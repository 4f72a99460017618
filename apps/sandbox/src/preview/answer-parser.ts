/**
 * Reads an app's HTTP/1.1 answers off a tunnel, strictly, with every buffer bounded: the app is
 * hostile. It only has to find where each answer's head and body end (the body's bytes pass
 * through as they come); what a browser gets is written anew by the service's own server from
 * what this reports, never the app's bytes as framing.
 */

/** The longest head (status line and headers) and trailer section an app may send. */
export const MAX_ANSWER_HEAD_BYTES = 64 * 1024;
/** The longest chunk-size line (with extensions). */
const MAX_CHUNK_LINE_BYTES = 1024;

/** Why an app's answer could not be passed on: it hung up (`closed`), or sent what is not HTTP. */
export class AnswerError extends Error {
  constructor(
    message: string,
    readonly closed = false,
  ) {
    super(message);
  }
}

/** A final answer's head, as the proxy passes it on. */
export interface AnswerHead {
  status: number;
  reason: string;
  /** `[name, value, name, value, …]` as the app sent them (latin1: every byte unchanged). */
  rawHeaders: string[];
}

export interface AnswerEvents {
  head(head: AnswerHead): void;
  body(chunk: Buffer): void;
  /** The answer is complete; `reusable`: the tunnel may carry another request. */
  end(reusable: boolean): void;
}

type State =
  | { kind: "idle" }
  | { kind: "head"; parts: Buffer[]; length: number }
  | { kind: "sized"; left: number }
  | { kind: "chunk-size"; line: string }
  | { kind: "chunk-data"; left: number }
  | { kind: "chunk-end"; seen: string }
  | { kind: "trailers"; parts: Buffer[]; length: number }
  | { kind: "until-close" };

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,12})[ \t]*(?:;[\t\x20-\x7e\x80-\xff]*)?$/;
const CONTENT_LENGTH = /^\d{1,15}$/;
const CRLF_CRLF = Buffer.from("\r\n\r\n");

/**
 * One tunnel's answers, in order: `expect` says what the next request was (a HEAD's answer has no
 * body), `push` takes the tunnel's bytes, `close` its end. Throws AnswerError for anything that is
 * not an unambiguous HTTP/1.x answer: a byte before a request, a bare CR, a folded header, both
 * Content-Length and Transfer-Encoding, a coding other than chunked, an oversized head or chunk line.
 */
export class AnswerParser {
  private state: State = { kind: "idle" };
  private headOnly = false;
  private keepAlive = true;

  constructor(private readonly on: AnswerEvents) {}

  /** A request went out; its answer comes next. */
  expect(method: string): void {
    if (this.state.kind !== "idle") throw new AnswerError("a request was sent before the last answer ended");
    this.headOnly = method === "HEAD";
    this.state = { kind: "head", parts: [], length: 0 };
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) rest = this.step(rest);
  }

  /** The tunnel ended: completes an answer that runs until the close, refuses to end any other mid-way. */
  close(): void {
    if (this.state.kind === "until-close") {
      this.state = { kind: "idle" };
      this.on.end(false);
    } else if (this.state.kind !== "idle") {
      throw new AnswerError("the app closed the connection in the middle of its answer", true);
    }
  }

  /** Whether an answer is under way (its head sent or expected). */
  get busy(): boolean {
    return this.state.kind !== "idle";
  }

  /** Consumes the start of `bytes`; returns what is left. */
  private step(bytes: Buffer): Buffer {
    const state = this.state;
    switch (state.kind) {
      case "idle":
        throw new AnswerError("the app sent bytes nobody asked for");
      case "head":
      case "trailers": {
        const end = findBlankLine(state.parts, bytes);
        const taken = end < 0 ? bytes.length : end;
        state.length += taken;
        if (state.length > MAX_ANSWER_HEAD_BYTES) throw new AnswerError("the app's answer head is too large");
        state.parts.push(bytes.subarray(0, taken));
        if (end < 0) return EMPTY;
        const text = Buffer.concat(state.parts).toString("latin1");
        if (state.kind === "head") this.head(text);
        else this.finish();
        return bytes.subarray(taken);
      }
      case "sized": {
        const taken = Math.min(state.left, bytes.length);
        state.left -= taken;
        this.on.body(bytes.subarray(0, taken));
        if (state.left === 0) this.finish();
        return bytes.subarray(taken);
      }
      case "chunk-size": {
        const newline = bytes.indexOf(10);
        const taken = newline < 0 ? bytes.length : newline + 1;
        state.line += bytes.toString("latin1", 0, taken);
        if (state.line.length > MAX_CHUNK_LINE_BYTES)
          throw new AnswerError("the app's chunk size line is too long");
        if (newline < 0) return EMPTY;
        const size = CHUNK_SIZE.exec(lineOf(state.line.slice(0, -1)))?.[1];
        if (size === undefined) throw new AnswerError("the app sent a malformed chunk size");
        const left = Number.parseInt(size, 16);
        this.state =
          left === 0
            ? { kind: "trailers", parts: [Buffer.from("\r\n")], length: 2 }
            : { kind: "chunk-data", left };
        return bytes.subarray(taken);
      }
      case "chunk-data": {
        const taken = Math.min(state.left, bytes.length);
        state.left -= taken;
        this.on.body(bytes.subarray(0, taken));
        if (state.left === 0) this.state = { kind: "chunk-end", seen: "" };
        return bytes.subarray(taken);
      }
      case "chunk-end": {
        state.seen += String.fromCharCode(bytes[0] as number);
        if (state.seen === "\r") return bytes.subarray(1);
        if (state.seen !== "\r\n" && state.seen !== "\n")
          throw new AnswerError("the app's chunk did not end where its size said");
        this.state = { kind: "chunk-size", line: "" };
        return bytes.subarray(1);
      }
      case "until-close":
        this.on.body(bytes);
        return EMPTY;
    }
  }

  private head(text: string): void {
    const lines = text.split("\n").map(lineOf);
    const status = STATUS_LINE.exec(lines[0] ?? "");
    if (!status) throw new AnswerError("the app's answer does not start with an HTTP/1.x status line");
    const code = Number(status[2]);
    const rawHeaders: string[] = [];
    let lengths: string | undefined;
    let coding: string | undefined;
    let close = status[1] === "0";
    // The head ends with an empty line: everything between is a header.
    for (const line of lines.slice(1, -2)) {
      const header = HEADER_LINE.exec(line);
      if (!header) throw new AnswerError("the app sent a malformed header line");
      const [, name = "", value = ""] = header;
      const lower = name.toLowerCase();
      if (lower === "content-length") {
        if (!CONTENT_LENGTH.test(value) || (lengths !== undefined && lengths !== value))
          throw new AnswerError("the app sent an invalid or conflicting Content-Length");
        lengths = value;
      } else if (lower === "transfer-encoding") {
        if (coding !== undefined || value.toLowerCase() !== "chunked")
          throw new AnswerError("the app sent a Transfer-Encoding other than chunked");
        coding = "chunked";
      } else if (lower === "connection" && /(?:^|,)\s*close\s*(?:,|$)/i.test(value)) {
        close = true;
      }
      rawHeaders.push(name, value);
    }
    if (code < 200) {
      // 101 is only for an upgrade, which goes another way; other 1xx are interim: the final answer follows.
      if (code === 101) throw new AnswerError("the app switched protocols on a plain request");
      this.state = { kind: "head", parts: [], length: 0 };
      return;
    }
    if (lengths !== undefined && coding !== undefined)
      throw new AnswerError("the app sent both Content-Length and Transfer-Encoding");
    this.keepAlive = !close;
    this.on.head({ status: code, reason: status[3] ?? "", rawHeaders });
    if (this.headOnly || code === 204 || code === 304) this.finish();
    else if (coding) this.state = { kind: "chunk-size", line: "" };
    else if (lengths !== undefined) {
      const left = Number(lengths);
      if (left === 0) this.finish();
      else this.state = { kind: "sized", left };
    } else {
      this.keepAlive = false;
      this.state = { kind: "until-close" };
    }
  }

  private finish(): void {
    this.state = { kind: "idle" };
    this.on.end(this.keepAlive);
  }
}

const EMPTY = Buffer.alloc(0);

/** A line without its CR; a CR anywhere else is refused (it could split a header for someone else). */
function lineOf(line: string): string {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.includes("\r")) throw new AnswerError("the app sent a bare carriage return");
  return text;
}

/**
 * Where the blank line ending a head is, counted in `bytes` (just past it), given the bytes
 * already kept (`parts`) that it may straddle; -1 when not yet there. Accepts CRLF CRLF and LF LF.
 */
function findBlankLine(parts: Buffer[], bytes: Buffer): number {
  // The blank line is at most 4 bytes: the last 3 kept may start it (parts may be single bytes).
  const keptTail = parts.length > 0 ? Buffer.concat(parts.slice(-3)).subarray(-3) : EMPTY;
  const window = keptTail.length > 0 ? Buffer.concat([keptTail, bytes]) : bytes;
  const crlf = window.indexOf(CRLF_CRLF);
  const lf = window.indexOf("\n\n");
  const ends = [crlf < 0 ? -1 : crlf + 4, lf < 0 ? -1 : lf + 2].filter((e) => e > 0);
  if (ends.length === 0) return -1;
  return Math.min(...ends) - keptTail.length;
}
