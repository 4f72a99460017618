import {
  DaemonErrorCode,
  type FileListResult,
  type FileMatches,
  MAX_EDITOR_FILE_BYTES,
  type ReplacementPlan,
  type SearchSummary,
  type TextQuery,
} from "@coder/protocol";
import { ripgrepBinary, runRipgrep, type ToolsConfig, WALK_FLAGS } from "@coder/tools";
import { readWorkspaceFile } from "../files/read";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError } from "../rpc/errors";
import { lineMatchOf } from "./line-window";
import { MatchBatcher } from "./match-batcher";
import { globFlags, matchFlags, replacementFlag } from "./rg-flags";
import { parseMatch } from "./rg-json";
import { runCollect } from "./run-collect";

export interface SearchOptions {
  root: string;
  config: ToolsConfig;
  /** Sends `search.matches`; resolves once written, so matches always precede the answer. */
  sendMatches(searchId: string, files: FileMatches[]): Promise<void>;
}

async function ripgrep(config: ToolsConfig): Promise<string> {
  const bin = await ripgrepBinary(config);
  if (!bin) throw daemonError(DaemonErrorCode.Io, "ripgrep (rg) is not installed in the workspace");
  return bin;
}

/** ripgrep's complaint about a pattern or glob, as one line for a person; undefined for other errors. */
export function patternProblem(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((line) => line.trim());
  if (lines.some((line) => line.startsWith("regex parse error"))) {
    const why = lines
      .find((line) => line.startsWith("error:"))
      ?.slice("error:".length)
      .trim();
    return `not a valid regular expression${why ? `: ${why}` : ""}`;
  }
  const glob = lines.find((line) => /glob/i.test(line));
  return glob?.slice(0, 1000);
}

/** Every file ripgrep would search, sorted, at most `limit`. */
async function listFiles(
  options: SearchOptions,
  limit: number,
  signal: AbortSignal,
): Promise<FileListResult> {
  const files: string[] = [];
  let truncated = false;
  await runRipgrep(
    await ripgrep(options.config),
    ["--files", ...WALK_FLAGS],
    options.root,
    signal,
    (line) => {
      if (files.length >= limit) {
        truncated = true;
        return false;
      }
      if (line.length <= 4096) files.push(line);
      return true;
    },
  );
  return { files: files.sort(), truncated };
}

async function searchText(
  options: SearchOptions,
  params: { searchId: string; query: TextQuery; maxMatches: number },
  signal: AbortSignal,
): Promise<SearchSummary> {
  const { query, maxMatches } = params;
  const batcher = new MatchBatcher((files) => options.sendMatches(params.searchId, files));
  const args = ["--json", ...WALK_FLAGS, ...globFlags(query), ...matchFlags(query)];
  let matchCount = 0;
  let truncated = false;
  const files = new Set<string>();
  const run = await runRipgrep(
    await ripgrep(options.config),
    args,
    options.root,
    signal,
    (line) => {
      const match = parseMatch(line);
      if (!match) return true;
      if (matchCount >= maxMatches) {
        truncated = true;
        return false;
      }
      matchCount += 1;
      files.add(match.path);
      batcher.push(match.path, lineMatchOf(match.line, match.text, match.submatches));
      return true;
    },
    // A match in a line of many megabytes is not shown; the results say something is missing.
    {
      onLongLine: () => {
        truncated = true;
      },
    },
  );
  await batcher.flush();
  if (run.code === 2 && !run.stopped && matchCount === 0) {
    const problem = patternProblem(run.stderr);
    if (problem) throw daemonError(DaemonErrorCode.BadPattern, problem);
  }
  return { matchCount, fileCount: files.size, truncated };
}

/** One file with every match of the query replaced, by ripgrep itself so it matches what the search found. */
async function planReplacement(
  options: SearchOptions,
  params: { path: string; query: TextQuery; replacement: string },
  signal: AbortSignal,
): Promise<ReplacementPlan> {
  const rg = await ripgrep(options.config);
  const file = await readWorkspaceFile(options.root, params.path, MAX_EDITOR_FILE_BYTES);
  if (file.kind !== "text") {
    const why = file.kind === "binary" ? "is not a text file" : "is larger than 5 MB";
    throw daemonError(DaemonErrorCode.Io, `${file.path} ${why}`);
  }
  const base = { path: file.path, version: file.version };
  const flags = matchFlags(params.query);
  const io = { stdin: file.content, maxBytes: MAX_EDITOR_FILE_BYTES, signal };
  const counted = await runCollect(rg, ["--count-matches", ...flags, "-"], io);
  const count = Number.parseInt(counted.stdout.trim() || "0", 10) || 0;
  if (counted.code === 2) {
    throw daemonError(
      DaemonErrorCode.BadPattern,
      patternProblem(counted.stderr) ?? counted.stderr.slice(0, 1000),
    );
  }
  if (count === 0) return { ...base, count: 0, before: "", after: "" };
  const passthru = ["--passthru", "--no-line-number", "--color", "never"];
  const replaced = await runCollect(
    rg,
    [...passthru, ...replacementFlag(params.query, params.replacement), ...flags, "-"],
    io,
  );
  if (replaced.overflow) throw daemonError(DaemonErrorCode.Io, `${file.path} would grow past 5 MB`);
  if (replaced.code !== 0) throw daemonError(DaemonErrorCode.Io, `ripgrep could not replace in ${file.path}`);
  // rg ends every line it prints, also a last one that had no newline.
  const after =
    !file.content.endsWith("\n") && replaced.stdout.endsWith("\n")
      ? replaced.stdout.slice(0, -1)
      : replaced.stdout;
  return { ...base, count, before: file.content, after };
}

/** search.files, search.text and search.replaceIn, confined to `root`. */
export function searchMethods(options: SearchOptions): {
  [M in "search.files" | "search.text" | "search.replaceIn"]: DaemonHandler<M>;
} {
  return {
    "search.files": (params, signal) => listFiles(options, params.limit, signal),
    "search.text": (params, signal) => searchText(options, params, signal),
    "search.replaceIn": (params, signal) => planReplacement(options, params, signal),
  };
}
