import { toLf } from "../../edit/line-endings";
import { type DiffLine, failure, type Outcome } from "../types";

export interface Hunk {
  /** 1-based line of the old side, as stated; undefined for a bare `@@` header without numbers. */
  oldStart: number | undefined;
  lines: DiffLine[];
  /** `\ No newline at end of file` after the old side's / new side's last line. */
  oldNoNewline: boolean;
  newNoNewline: boolean;
}

export interface FileDiff {
  /** Null for /dev/null (a new file). */
  oldPath: string | null;
  /** Null for /dev/null (a deleted file). */
  newPath: string | null;
  /** `rename from` / `rename to` were given. */
  renamed: boolean;
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** git extended header lines that may follow `diff --git`. */
const GIT_HEADER =
  /^(old mode|new mode|deleted file mode|new file mode|index|similarity index|dissimilarity index|rename from|rename to|copy from|copy to) ?/;

/**
 * Parses a unified diff: plain `---`/`+++` sections or `diff --git` ones (with new, deleted and
 * renamed files), several files, `\ No newline at end of file`. Text outside file sections (a
 * commit message, `Index:` lines) is skipped. Hunk line counts are not trusted: models get them
 * wrong, so a hunk runs until the next header.
 */
export function parseUnifiedDiff(patch: string): Outcome<FileDiff[]> {
  const lines = toLf(patch).split("\n");
  // fromGit: opened by `diff --git`; hasPaths: its `---`/`+++` lines were seen.
  const files: (FileDiff & { fromGit: boolean; hasPaths: boolean })[] = [];
  let current: (typeof files)[number] | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith("diff --git ")) {
      const paths = gitHeaderPaths(line.slice("diff --git ".length));
      current = {
        oldPath: paths?.[0] ?? null,
        newPath: paths?.[1] ?? null,
        renamed: false,
        hunks: [],
        fromGit: true,
        hasPaths: false,
      };
      files.push(current);
      i++;
      for (; i < lines.length; i++) {
        const header = lines[i] as string;
        if (header.startsWith("Binary files ") || header.startsWith("GIT binary patch")) {
          return failure(
            "invalid_args",
            `binary patches are not supported (${current.newPath ?? current.oldPath})`,
          );
        }
        const match = GIT_HEADER.exec(header);
        if (!match) break;
        const value = unquote(header.slice(match[0].length));
        if (match[1] === "new file mode") current.oldPath = null;
        else if (match[1] === "deleted file mode") current.newPath = null;
        else if (match[1] === "rename from") [current.oldPath, current.renamed] = [value, true];
        else if (match[1] === "rename to") [current.newPath, current.renamed] = [value, true];
        else if (match[1] === "copy from" || match[1] === "copy to") {
          return failure(
            "invalid_args",
            "copies (`copy from`/`copy to`) are not supported; add the new file instead",
          );
        }
      }
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const oldPath = headerPath(line.slice(4));
      const newPath = headerPath((lines[i + 1] as string).slice(4));
      // The ---/+++ of a `diff --git` section belong to it; any others open a new section.
      if (!(current?.fromGit && !current.hasPaths && current.hunks.length === 0)) {
        current = { oldPath, newPath, renamed: false, hunks: [], fromGit: false, hasPaths: true };
        files.push(current);
      } else if (!current.renamed) {
        [current.oldPath, current.newPath, current.hasPaths] = [oldPath, newPath, true];
      } else {
        current.hasPaths = true;
      }
      i += 2;
      continue;
    }
    if (line.startsWith("@@")) {
      if (!current)
        return failure(
          "invalid_args",
          `line ${i + 1}: a hunk (@@) before any file header (--- a/path, +++ b/path)`,
        );
      const parsed = readHunk(lines, i);
      if (!parsed.ok) return parsed;
      current.hunks.push(parsed.value.hunk);
      i = parsed.value.next;
      continue;
    }
    i++;
  }
  const diffs = files.map(({ fromGit: _g, hasPaths: _h, ...diff }) => stripPrefixes(diff));
  if (diffs.length === 0) {
    return failure(
      "invalid_args",
      "no file changes found: expected a unified diff with `--- a/path`, `+++ b/path` and `@@` hunks",
    );
  }
  for (const diff of diffs) {
    if (diff.oldPath === null && diff.newPath === null) {
      return failure("invalid_args", "a file section names no path (both sides are /dev/null)");
    }
  }
  return { ok: true, value: diffs };
}

function readHunk(lines: string[], start: number): Outcome<{ hunk: Hunk; next: number }> {
  const header = lines[start] as string;
  const numbers = HUNK_HEADER.exec(header);
  // A bare `@@` (or `@@ some context @@`) without numbers is accepted: the hunk is searched for.
  if (!numbers && header.startsWith("@@ -")) {
    return failure("invalid_args", `line ${start + 1}: malformed hunk header ${JSON.stringify(header)}`);
  }
  const hunk: Hunk = {
    oldStart: numbers ? Number(numbers[1]) : undefined,
    lines: [],
    oldNoNewline: false,
    newNoNewline: false,
  };
  let i = start + 1;
  let bareEmpty = 0;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) break;
    const op = line[0];
    if (op === " " || op === "-" || op === "+") {
      hunk.lines.push({ op, text: line.slice(1) });
      bareEmpty = 0;
    } else if (line === "") {
      // An empty context line whose leading space was lost, or a gap before the next section.
      hunk.lines.push({ op: " ", text: "" });
      bareEmpty++;
    } else if (line.startsWith("\\")) {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last?.op !== "+") hunk.oldNoNewline = true;
      if (last?.op !== "-") hunk.newNoNewline = true;
      bareEmpty = 0;
    } else break;
  }
  // Bare empty lines that end a hunk are taken as separators: dropping a context line only makes
  // the hunk match more loosely, while keeping a separator would make it fail.
  hunk.lines.splice(hunk.lines.length - bareEmpty, bareEmpty);
  if (!hunk.lines.some((l) => l.op !== " ")) {
    return failure("invalid_args", `line ${start + 1}: the hunk changes nothing (no + or - lines)`);
  }
  return { ok: true, value: { hunk, next: i } };
}

/** The path of a `---`/`+++` line: without a trailing timestamp, unquoted; null for /dev/null. */
function headerPath(rest: string): string | null {
  const value = rest.startsWith('"') ? unquote(rest) : (rest.split("\t")[0] ?? "").trimEnd();
  return value === "/dev/null" ? null : value;
}

/** `a/x b/y` of a `diff --git` line, for sections without `---`/`+++` (renames, empty files). */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const quoted = /^("(?:[^"\\]|\\.)*") (.+)$/.exec(rest);
    return quoted ? [unquote(quoted[1] as string), unquote(quoted[2] as string)] : undefined;
  }
  // Unquoted paths may hold spaces: the split is where both halves name the same file.
  const half = (rest.length - 1) / 2;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  if (Number.isInteger(half) && left.slice(2) === right.slice(2)) return [left, right];
  const space = rest.indexOf(" b/");
  return space === -1 ? undefined : [rest.slice(0, space), rest.slice(space + 1)];
}

/** Git quotes paths with unusual characters C-style: `"a/tab\there"`. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const escapes: Record<string, string> = {
    n: "\n",
    t: "\t",
    r: "\r",
    '"': '"',
    "\\": "\\",
    a: "\x07",
    b: "\b",
    f: "\f",
    v: "\v",
  };
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== "\\") {
      bytes.push(...Buffer.from(char));
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(...Buffer.from(escapes[next] ?? next));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Drops git's `a/` and `b/` prefixes when the section uses them. */
function stripPrefixes(diff: FileDiff): FileDiff {
  const prefixed =
    (diff.oldPath === null || diff.oldPath.startsWith("a/")) &&
    (diff.newPath === null || diff.newPath.startsWith("b/")) &&
    !diff.renamed;
  if (!prefixed) return diff;
  return {
    ...diff,
    oldPath: diff.oldPath === null ? null : diff.oldPath.slice(2),
    newPath: diff.newPath === null ? null : diff.newPath.slice(2),
  };
}
