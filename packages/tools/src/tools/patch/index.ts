import { z } from "zod";
import { defineTool } from "../../framework/types";
import { commitPlan, formatPatchResult, patchApproval } from "../../patch/run";
import { type FileDiff, parseUnifiedDiff } from "../../patch/unified/parse";
import { planUnifiedDiff } from "../../patch/unified/plan";
import { workspaceSource } from "../../patch/workspace-source";
import description from "./patch.txt";

const parameters = z.object({
  patch: z
    .string()
    .min(1)
    .describe("A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks), one or more files"),
  dry_run: z
    .boolean()
    .optional()
    .describe("Check that the patch applies and report what it would do, without writing"),
});

export const patchTool = defineTool({
  id: "patch",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: patchedFiles, changes: patchedFiles },
  approval: (args) => {
    const parsed = parseUnifiedDiff(args.patch);
    return patchApproval(parsed.ok ? parsed.value.flatMap(paths) : undefined, "Apply patch");
  },
  async execute(args, ctx) {
    const parsed = parseUnifiedDiff(args.patch);
    const plan = async () => (parsed.ok ? planUnifiedDiff(parsed.value, workspaceSource(ctx)) : parsed);
    return commitPlan(plan, args.dry_run ?? false, ctx);
  },
  format: formatPatchResult,
});

function paths(diff: FileDiff): string[] {
  return [diff.oldPath, diff.newPath].filter((p): p is string => p !== null);
}

/** The files the patch names; none when it does not parse (it then changes nothing). */
function patchedFiles(args: { patch: string }): string[] {
  const parsed = parseUnifiedDiff(args.patch);
  return parsed.ok ? parsed.value.flatMap(paths) : [];
}
