import { stat } from "node:fs/promises";
import { decodeText } from "../edit/line-endings";
import { recordFileState } from "../files/read-record";
import { formatError } from "../framework/format";
import { fail, type ToolContext, ToolError, type ToolResult } from "../framework/types";
import { commitWrites } from "./commit";
import type { ChangeOperation, Outcome, Plan } from "./types";

export interface ChangeResult {
  path: string;
  operation: ChangeOperation;
  newPath?: string;
  additions: number;
  deletions: number;
}

/** Plans again when a file changed between planning and writing (another writer at work). */
const MAX_ATTEMPTS = 3;

/**
 * The last step of `patch` and `apply_patch`: report a failed plan, or with `dryRun` the plan
 * itself, or commit it (all or nothing) and note the written files as known to the session. A
 * file that changed after it was planned on is never overwritten: the patch is planned again on it.
 */
export async function commitPlan(
  plan: () => Promise<Outcome<Plan>>,
  dryRun: boolean,
  ctx: ToolContext,
): Promise<ToolResult> {
  for (let attempt = 1; ; attempt++) {
    const planned = await plan();
    if (!planned.ok) return fail(planned.error.code, planned.error.message, planned.error.hint);
    const results: ChangeResult[] = planned.value.changes.map(({ content: _content, ...result }) => result);
    if (dryRun) return { ok: true, applied: false, dry_run: true, results };
    if (ctx.abort.aborted)
      throw new ToolError("aborted", "the call was cancelled before any file was written");
    try {
      await commitWrites(planned.value.writes);
    } catch (error) {
      if (error instanceof ToolError && error.code === "stale_file" && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
    return recordCommit(planned.value, results, ctx);
  }
}

/** The written files, as the session now knows them. */
async function recordCommit(plan: Plan, results: ChangeResult[], ctx: ToolContext): Promise<ToolResult> {
  for (const { absolute, content } of plan.writes) {
    if (content === null) ctx.session.files.delete(absolute);
    else recordFileState(ctx, absolute, await stat(absolute), decodeText(content).text);
  }
  ctx.metadata({ results });
  return { ok: true, applied: true, results };
}

const LETTER: Record<ChangeOperation, string> = { created: "A", modified: "M", deleted: "D", renamed: "R" };

/** One line per file, `git status` style: `M src/app.ts (+3 -1)`. */
export function formatPatchResult(result: ToolResult): string {
  if (result.error) return formatError(result);
  const results = (result.results ?? []) as ChangeResult[];
  const head = result.applied
    ? `Applied the patch: ${results.length} file${results.length === 1 ? "" : "s"} changed`
    : `Checked the patch (dry run, nothing written): it applies to ${results.length} file${results.length === 1 ? "" : "s"}`;
  const lines = results.map((r) => {
    const name = r.newPath === undefined ? r.path : `${r.path} -> ${r.newPath}`;
    return `${LETTER[r.operation]} ${name} (+${r.additions} -${r.deletions})`;
  });
  return [head, ...lines].join("\n");
}

/** The permission a patch needs: `edit` on every path it names (or on everything when unreadable). */
export function patchApproval(paths: string[] | undefined, tool: string) {
  const patterns = paths && paths.length > 0 ? [...new Set(paths)] : ["*"];
  return { permission: "edit", patterns, title: `${tool}: ${patterns.join(", ")}` };
}
