import { ToolError } from "../../framework/types";
import { countOps } from "../splice";
import { type Outcome, type PatchSource, type Plan, type PlannedChange, settle } from "../types";
import { PatchWorkspace } from "../workspace";
import { applyHunks } from "./apply";
import type { FileDiff } from "./parse";

/**
 * Works out, in memory, what a parsed unified diff does to the workspace: every section in order
 * (later sections see earlier ones), every hunk placed, nothing written. Fails with a typed error:
 * conflict (a hunk that does not apply, a file to create that exists), not_found (a file to change
 * that does not exist), permission_denied (a path outside the workspace), binary_file.
 */
export function planUnifiedDiff(diffs: readonly FileDiff[], source: PatchSource): Promise<Outcome<Plan>> {
  return settle(async () => {
    const workspace = new PatchWorkspace(source);
    const changes: PlannedChange[] = [];
    for (const diff of diffs) {
      const change = await planFile(diff, workspace);
      if (change) changes.push(change);
    }
    return { changes, writes: workspace.writes() };
  });
}

/**
 * The file a section changes. A plain diff between two names (`--- x.orig`, `+++ x`) is not a
 * rename: it patches the file that exists, the new name first, as patch(1) does.
 */
async function patchedPath(diff: FileDiff, workspace: PatchWorkspace): Promise<string> {
  const oldPath = diff.oldPath as string;
  if (diff.renamed || diff.newPath === null || diff.newPath === oldPath) return oldPath;
  const newFile = await workspace.locate(diff.newPath);
  return (await workspace.get(newFile)) !== null ? diff.newPath : oldPath;
}

async function planFile(diff: FileDiff, workspace: PatchWorkspace): Promise<PlannedChange | undefined> {
  const counts = countOps(diff.hunks.flatMap((h) => h.lines));
  if (diff.oldPath === null) {
    const file = await workspace.locate(diff.newPath as string);
    if ((await workspace.get(file)) !== null) {
      throw new ToolError(
        "conflict",
        `${file.display} already exists; a patch can only create a new file`,
        "change it with a diff against its current text",
      );
    }
    workspace.set(file, { text: applyHunks("", diff.hunks, file.display), eol: "\n", bom: false });
    return { path: file.display, operation: "created", content: workspace.encoded(file), ...counts };
  }

  const file = await workspace.locate(await patchedPath(diff, workspace));
  const current = await workspace.get(file);
  if (current === null)
    throw new ToolError(
      "not_found",
      `${file.display} does not exist`,
      "check the path, or create the file with --- /dev/null",
    );
  const text = applyHunks(current.text, diff.hunks, file.display);

  if (diff.newPath === null) {
    if (text.trim() !== "") {
      throw new ToolError(
        "conflict",
        `${file.display} cannot be deleted: the patch does not remove all of its content`,
        "read the file again; a deletion must remove every line",
      );
    }
    workspace.set(file, null);
    return { path: file.display, operation: "deleted", content: null, ...counts };
  }

  const target = diff.renamed ? await workspace.locate(diff.newPath) : file;
  const updated = { ...current, text };
  // A mode change alone leaves the text as it is.
  if (target.absolute === file.absolute && diff.hunks.length === 0) return undefined;
  return workspace.place(file, target, updated, counts, "rename");
}
