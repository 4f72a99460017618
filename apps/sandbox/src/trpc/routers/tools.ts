import { randomUUID } from "node:crypto";
import { toolsExecuteInput, toolsListInput } from "@coder/protocol";
import { router, workspaceProcedure } from "../init";

/** The agent's tools, callable directly by the owner (the agent runtime uses the same daemon calls). */
export const toolsRouter = router({
  list: workspaceProcedure("viewer")
    .input(toolsListInput)
    .query(async ({ ctx, input }) => {
      const daemon = await ctx.workspaces.runningDaemon(input.workspaceId);
      return (await daemon.request("tools.list", {})).tools;
    }),
  execute: workspaceProcedure("editor")
    .input(toolsExecuteInput)
    .mutation(async ({ ctx, input, signal }) => {
      const daemon = await ctx.workspaces.runningDaemon(input.workspaceId);
      return daemon.request(
        "tools.execute",
        { tool: input.tool, args: input.args, sessionId: input.sessionId, callId: randomUUID() },
        signal,
      );
    }),
});
