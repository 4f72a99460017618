import { router, workspaceProcedure } from "../init";

export const terminalRouter = router({
  /** The workspace's open terminals (its tmux sessions), oldest first: the tabs a newcomer sees. */
  list: workspaceProcedure("viewer").query(async ({ ctx, input }) => {
    await ctx.workspaces.runningDaemon(input.workspaceId);
    return { names: await ctx.terminals.list(input.workspaceId) };
  }),
});
