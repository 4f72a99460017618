import { StringDecoder } from "node:string_decoder";
import type { ImportPhase, ImportProgress } from "@coder/protocol";

/** A segment (between `\r` and `\n`) is cut here: progress lines are short, hostile ones are not. */
const MAX_SEGMENT = 512;
/** Lines kept for the failure message, the last ones. */
const TAIL_LINES = 12;
/** The failure message is at most this long. */
const MAX_MESSAGE = 2000;

/**
 * git's own progress lines; the remote's (`remote: …`) may only claim the phases the remote runs,
 * so a hostile server cannot make a stalled clone look finished.
 */
const LOCAL_PHASES: [RegExp, ImportPhase][] = [
  [/^Cloning into /, "connecting"],
  [/^Receiving objects:\s+(\d{1,3})%/, "receiving"],
  [/^Resolving deltas:\s+(\d{1,3})%/, "resolving"],
  [/^(?:Updating files|Checking out files):\s+(\d{1,3})%/, "checkout"],
];
const REMOTE_PHASES: [RegExp, ImportPhase][] = [
  [/^(?:Enumerating|Counting|Compressing) objects:/, "counting"],
];
const PERCENT = /:\s+(\d{1,3})%/;

// Escape sequences (the remote's "clear line") and other control characters never reach a person.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const CONTROL = /\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * Reads git's `--progress` stderr (hostile: it carries the server's words) a chunk at a time:
 * reports the phase and percentage as they change, and keeps the last few finished lines for the
 * message of a failure. Holds at most one cut segment and a dozen short lines, whatever comes.
 */
export class GitProgress {
  private segment = "";
  private readonly tail: string[] = [];
  private last: ImportProgress | undefined;
  private readonly decoder = new StringDecoder("utf8");

  constructor(private readonly onProgress: (progress: ImportProgress) => void) {}

  write(chunk: Buffer | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    // One pass: each search starts where the last ended.
    const separator = /[\r\n]/g;
    let at = 0;
    while (at < text.length) {
      separator.lastIndex = at;
      const end = separator.exec(text)?.index ?? -1;
      const stop = end < 0 ? text.length : end;
      if (this.segment.length < MAX_SEGMENT)
        this.segment += text.slice(at, Math.min(stop, at + MAX_SEGMENT - this.segment.length));
      if (end < 0) return;
      this.finish(text[end] === "\n");
      at = end + 1;
    }
  }

  /** What went wrong, in git's words: its `fatal:`/`error:` lines, else its last lines. */
  failureMessage(): string {
    this.finish(true);
    const errors = this.tail.filter((line) => /^(fatal|error):/.test(line));
    const lines = errors.length > 0 ? errors : this.tail.slice(-3);
    const message = lines.join("\n");
    return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
  }

  private finish(lineEnded: boolean): void {
    const line = this.segment.replace(CONTROL, "").trim();
    this.segment = "";
    if (!line) return;
    const remote = line.startsWith("remote:");
    const words = remote ? line.slice("remote:".length).trim() : line;
    const match = (remote ? REMOTE_PHASES : LOCAL_PHASES).find(([pattern]) => pattern.test(words));
    if (match) {
      const percent = PERCENT.exec(words)?.[1];
      this.report({
        phase: match[1],
        percent: percent === undefined ? null : Math.min(100, Number(percent)),
      });
      return;
    }
    // A finished line that is not progress is what the failure message is made of.
    if (!lineEnded) return;
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
  }

  private report(progress: ImportProgress): void {
    if (this.last?.phase === progress.phase && this.last.percent === progress.percent) return;
    this.last = progress;
    this.onProgress(progress);
  }
}
