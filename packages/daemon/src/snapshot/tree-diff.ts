import type { ChangedFile } from "@coder/protocol";
import { type GitPlace, nulFields, runGit } from "./git";

/** How a path differs from one tree to the next. */
export interface TreeChange {
  path: string;
  /** A: only in the second tree; D: only in the first; M: in both, changed (content, mode or type). */
  status: "A" | "D" | "M";
}

/** The files that differ between two trees (renames are a deletion and an addition). */
export async function treeChanges(place: GitPlace, from: string, to: string): Promise<TreeChange[]> {
  const { stdout } = await runGit(place, [
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--name-status",
    from,
    to,
  ]);
  const fields = nulFields(stdout);
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const letter = fields[i] ?? "";
    const status = letter === "A" || letter === "D" ? letter : "M";
    changes.push({ path: fields[i + 1] ?? "", status });
  }
  return changes;
}

const STATUS: Record<TreeChange["status"], ChangedFile["status"]> = {
  A: "added",
  D: "deleted",
  M: "modified",
};

/** The changed files with their added and deleted line counts (0 and `binary` for binary files). */
export async function changedFiles(place: GitPlace, from: string, to: string): Promise<ChangedFile[]> {
  const [changes, numstat] = await Promise.all([
    treeChanges(place, from, to),
    runGit(place, ["diff-tree", "-r", "-z", "--no-renames", "--numstat", from, to]),
  ]);
  // -z numstat: "<added>\t<deleted>\t<path>" per NUL-ended record ("-" counts for binary files).
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  for (const record of nulFields(numstat.stdout)) {
    const [added = "", deleted = "", ...rest] = record.split("\t");
    const binary = added === "-";
    counts.set(rest.join("\t"), {
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      binary,
    });
  }
  return changes.map((c) => ({
    path: c.path,
    status: STATUS[c.status],
    ...(counts.get(c.path) ?? { additions: 0, deletions: 0, binary: false }),
  }));
}

/** The unified diff between two trees, cut at a file boundary past `maxBytes`. */
export async function unifiedPatch(
  place: GitPlace,
  from: string,
  to: string,
  maxBytes: number,
): Promise<{ patch: string; truncated: boolean }> {
  const { stdout } = await runGit(place, ["diff-tree", "-r", "-p", "--no-renames", "--no-color", from, to]);
  if (Buffer.byteLength(stdout) <= maxBytes) return { patch: stdout, truncated: false };
  const head = Buffer.from(stdout).subarray(0, maxBytes).toString("utf8");
  const lastFile = head.lastIndexOf("\ndiff --git ");
  return { patch: lastFile > 0 ? head.slice(0, lastFile + 1) : "", truncated: true };
}
