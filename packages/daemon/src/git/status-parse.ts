import { type GitFileStatus, type GitStatus, MAX_GIT_STATUS_FILES } from "@coder/protocol";

type Letter = GitFileStatus["index"];
const LETTERS = new Set<string>([".", "M", "T", "A", "D", "R", "C", "U", "?"]);
const letter = (c: string | undefined): Letter => (c !== undefined && LETTERS.has(c) ? (c as Letter) : ".");

/** The field after `count` space-separated fields: a path, which may itself hold spaces. */
function afterFields(record: string, count: number): string | undefined {
  let at = 0;
  for (let i = 0; i < count; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) return undefined;
  }
  return record.slice(at);
}

/**
 * Reads `git status --porcelain=v2 --branch -z`: headers (`# branch.*`) then one record per file,
 * NUL-terminated; a rename's record is followed by its source path as a field of its own. Paths
 * come as they are (spaces, newlines, any UTF-8), never quoted in this form. With `cut` (the
 * output was cut at its bound) the last record may be partial and is dropped.
 */
export function parseStatus(output: string, cut = false): GitStatus {
  const status: GitStatus = {
    repository: true,
    branch: null,
    head: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    files: [],
    truncated: cut,
  };
  const fields = output.split("\0");
  // The last field follows the last NUL: empty when complete, a partial record when cut.
  fields.pop();
  for (let i = 0; i < fields.length; i++) {
    const record = fields[i] as string;
    const kind = record.slice(0, 2);
    if (kind === "# ") {
      const [key, ...rest] = record.slice(2).split(" ");
      const value = rest.join(" ");
      if (key === "branch.oid") status.head = /^[0-9a-f]{40,64}$/.test(value) ? value : null;
      else if (key === "branch.head") status.branch = value === "(detached)" ? null : value;
      else if (key === "branch.upstream") status.upstream = value;
      else if (key === "branch.ab") {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        status.ahead = Number(match?.[1] ?? 0);
        status.behind = Number(match?.[2] ?? 0);
      }
      continue;
    }
    let file: GitFileStatus | undefined;
    const xy = record.slice(2, 4);
    if (kind === "1 ") {
      const path = afterFields(record, 8);
      if (path !== undefined) file = { path, kind: "changed", index: letter(xy[0]), worktree: letter(xy[1]) };
    } else if (kind === "2 ") {
      const path = afterFields(record, 9);
      const origPath = fields[i + 1];
      i += 1;
      if (path !== undefined && origPath !== undefined) {
        file = { path, origPath, kind: "renamed", index: letter(xy[0]), worktree: letter(xy[1]) };
      }
    } else if (kind === "u ") {
      const path = afterFields(record, 10);
      if (path !== undefined)
        file = { path, kind: "unmerged", index: letter(xy[0]), worktree: letter(xy[1]) };
    } else if (kind === "? ") {
      file = { path: record.slice(2), kind: "untracked", index: "?", worktree: "?" };
    }
    if (!file) continue;
    if (status.files.length >= MAX_GIT_STATUS_FILES) {
      status.truncated = true;
      break;
    }
    status.files.push(file);
  }
  return status;
}
