import { z } from "zod";
import { defineTool } from "../../framework/types";
import { type EnvelopeOperation, parseEnvelope } from "../../patch/envelope/parse";
import { planEnvelope } from "../../patch/envelope/plan";
import { commitPlan, formatPatchResult, patchApproval } from "../../patch/run";
import { workspaceSource } from "../../patch/workspace-source";
import description from "./apply_patch.txt";

const parameters = z.object({
  patch: z.string().min(1).describe("The whole patch, from `*** Begin Patch` to `*** End Patch`"),
});

export const applyPatchTool = defineTool({
  id: "apply_patch",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: patchedFiles, changes: patchedFiles },
  approval: (args) => {
    const parsed = parseEnvelope(args.patch);
    return patchApproval(parsed.ok ? parsed.value.flatMap(paths) : undefined, "Apply patch");
  },
  async execute(args, ctx) {
    const parsed = parseEnvelope(args.patch);
    const plan = async () => (parsed.ok ? planEnvelope(parsed.value, workspaceSource(ctx)) : parsed);
    return commitPlan(plan, false, ctx);
  },
  format: formatPatchResult,
});

function paths(operation: EnvelopeOperation): string[] {
  return operation.kind === "update" && operation.moveTo !== undefined
    ? [operation.path, operation.moveTo]
    : [operation.path];
}

/** The files the patch names; none when it does not parse (it then changes nothing). */
function patchedFiles(args: { patch: string }): string[] {
  const parsed = parseEnvelope(args.patch);
  return parsed.ok ? parsed.value.flatMap(paths) : [];
}
