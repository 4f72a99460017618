import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { looksBinary, SAMPLE_BYTES } from "../../files/binary";
import type { ToolContext } from "../../framework/types";
import { compileGlob } from "../../search/glob-match";
import { ripgrepBinary, runRipgrep, WALK_FLAGS } from "../../search/ripgrep";
import { type WalkedFile, walkFiles } from "../../search/walk";

export interface LineMatch {
  /** Absolute path of the file. */
  file: string;
  line: number;
  text: string;
}

export interface SearchRequest {
  pattern: string;
  /** The folder to search, or the single file. */
  target: string;
  isFile: boolean;
  include?: string;
  /** Stop after this many matching lines (one more is collected to tell the list was cut). */
  limit: number;
}

export type SearchOutcome = { kind: "done"; matches: LineMatch[] } | { kind: "bad_pattern"; message: string };

/** The built-in search skips files above this size; ripgrep has no such limit. */
const MAX_FALLBACK_FILE_BYTES = 20 * 1024 * 1024;

/** ripgrep when available; the built-in search otherwise, or for a regex only JavaScript accepts. */
export async function searchFiles(ctx: ToolContext, request: SearchRequest): Promise<SearchOutcome> {
  const rg = await ripgrepBinary(ctx.config);
  if (rg) {
    const outcome = await searchWithRipgrep(rg, ctx, request);
    // Look-around and back-references are Rust-regex errors but fine in JavaScript.
    if (outcome.kind === "done" || compileRegex(request.pattern) instanceof Error) return outcome;
  }
  return searchWithJavaScript(ctx, request);
}

async function searchWithRipgrep(
  rg: string,
  ctx: ToolContext,
  request: SearchRequest,
): Promise<SearchOutcome> {
  const cwd = request.isFile ? path.dirname(request.target) : request.target;
  const args = ["--json", ...WALK_FLAGS];
  if (request.include && !request.isFile) args.push("--glob", request.include);
  args.push("--regexp", request.pattern);
  if (request.isFile) args.push("--", path.basename(request.target));

  const matches: LineMatch[] = [];
  const run = await runRipgrep(rg, args, cwd, ctx.abort, (line) => {
    const match = parseRipgrepMatch(line, cwd);
    if (match) matches.push(match);
    return matches.length <= request.limit;
  });
  if (!run.stopped && run.code === 2 && /regex parse error|error parsing regex/i.test(run.stderr)) {
    return { kind: "bad_pattern", message: run.stderr.trim() };
  }
  return { kind: "done", matches };
}

function parseRipgrepMatch(line: string, cwd: string): LineMatch | undefined {
  let message: { type?: string; data?: Record<string, unknown> };
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (message.type !== "match" || !message.data) return undefined;
  const data = message.data as {
    path: { text?: string; bytes?: string };
    lines: { text?: string; bytes?: string };
    line_number: number;
  };
  const file = data.path.text ?? Buffer.from(data.path.bytes ?? "", "base64").toString("utf8");
  const text = data.lines.text ?? Buffer.from(data.lines.bytes ?? "", "base64").toString("utf8");
  return { file: path.join(cwd, file), line: data.line_number, text: text.replace(/\r?\n$/, "") };
}

async function searchWithJavaScript(ctx: ToolContext, request: SearchRequest): Promise<SearchOutcome> {
  const regex = compileRegex(request.pattern);
  if (regex instanceof Error) return { kind: "bad_pattern", message: regex.message };
  const include = request.include && !request.isFile ? compileGlob(request.include) : undefined;
  const matches: LineMatch[] = [];
  const files: AsyncIterable<WalkedFile> = request.isFile
    ? single(request.target)
    : walkFiles(ctx.workspaceRoot, request.target, ctx.abort);
  for await (const file of files) {
    if (include && !include(file.relative)) continue;
    const text = await readTextFile(file.absolute);
    if (text === undefined) continue;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] ?? "").replace(/\r$/, "");
      if (!regex.test(line)) continue;
      matches.push({ file: file.absolute, line: i + 1, text: line });
      if (matches.length > request.limit) return { kind: "done", matches };
    }
  }
  return { kind: "done", matches };
}

async function* single(file: string): AsyncGenerator<WalkedFile> {
  yield { absolute: file, relative: path.basename(file) };
}

/** The file as text, or undefined when it is binary, too big or unreadable (skipped like rg). */
async function readTextFile(file: string): Promise<string | undefined> {
  try {
    if ((await stat(file)).size > MAX_FALLBACK_FILE_BYTES) return undefined;
    const data = await readFile(file);
    if (looksBinary(data.subarray(0, SAMPLE_BYTES))) return undefined;
    const text = data.toString("utf8");
    // A final newline ends the last line rather than starting an empty one.
    return text.endsWith("\n") ? text.slice(0, -1) : text;
  } catch {
    return undefined;
  }
}

/** JavaScript's reading of the pattern; a leading `(?i)` (common in Rust/PCRE) becomes the i flag. */
export function compileRegex(pattern: string): RegExp | Error {
  const insensitive = pattern.startsWith("(?i)");
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? "i" : "");
  } catch (error) {
    return error as Error;
  }
}
