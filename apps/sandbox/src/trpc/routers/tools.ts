import { randomUUID } from "node:crypto";
import { toolsExecuteInput, toolsListInput } from "@coder/protocol";
import { router, runningWorkspaceProcedure } from "../init";

/** The agent's tools, callable directly by the owner (the agent runtime uses the same daemon calls). */
export const toolsRouter = router({
  list: runningWorkspaceProcedure("viewer")
    .input(toolsListInput)
    .query(async ({ ctx }) => (await ctx.daemon.request("tools.list", {})).tools),
  execute: runningWorkspaceProcedure("editor")
    .input(toolsExecuteInput)
    .mutation(async ({ ctx, input, signal }) => {
      return ctx.daemon.request(
        "tools.execute",
        { tool: input.tool, args: input.args, sessionId: input.sessionId, callId: randomUUID() },
        signal,
      );
    }),
});
