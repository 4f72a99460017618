import { ToolError } from "../../framework/types";
import { countOps } from "../splice";
import { type Outcome, type PatchSource, type Plan, type PlannedChange, settle } from "../types";
import { PatchWorkspace } from "../workspace";
import { applyChunks } from "./apply";
import type { EnvelopeOperation } from "./parse";

/**
 * Works out, in memory, what a parsed envelope does to the workspace, operation by operation
 * (later operations see earlier ones); nothing is written. Typed errors as for unified diffs.
 */
export function planEnvelope(
  operations: readonly EnvelopeOperation[],
  source: PatchSource,
): Promise<Outcome<Plan>> {
  return settle(async () => {
    const workspace = new PatchWorkspace(source);
    const changes: PlannedChange[] = [];
    for (const operation of operations) changes.push(await planOperation(operation, workspace));
    return { changes, writes: workspace.writes() };
  });
}

async function planOperation(
  operation: EnvelopeOperation,
  workspace: PatchWorkspace,
): Promise<PlannedChange> {
  const file = await workspace.locate(operation.path);
  const current = await workspace.get(file);

  if (operation.kind === "add") {
    if (current !== null) {
      throw new ToolError(
        "conflict",
        `${file.display} already exists; "*** Add File" only creates new files`,
        'use "*** Update File" to change it',
      );
    }
    const text = operation.lines.length === 0 ? "" : `${operation.lines.join("\n")}\n`;
    workspace.set(file, { text, eol: "\n", bom: false });
    return {
      path: file.display,
      operation: "created",
      content: workspace.encoded(file),
      additions: operation.lines.length,
      deletions: 0,
    };
  }

  if (current === null)
    throw new ToolError(
      "not_found",
      `${file.display} does not exist`,
      'check the path, or create it with "*** Add File"',
    );

  if (operation.kind === "delete") {
    workspace.set(file, null);
    const deletions = current.text === "" ? 0 : current.text.replace(/\n$/, "").split("\n").length;
    return { path: file.display, operation: "deleted", content: null, additions: 0, deletions };
  }

  const updated = { ...current, text: applyChunks(current.text, operation.chunks, file.display) };
  const counts = countOps(operation.chunks.flatMap((c) => c.lines));
  const target = operation.moveTo === undefined ? file : await workspace.locate(operation.moveTo);
  return workspace.place(file, target, updated, counts, "move");
}
