import { router, runningWorkspaceProcedure } from "../init";

export const terminalRouter = router({
  /** The workspace's open terminals (its tmux sessions), oldest first: the tabs a newcomer sees. */
  list: runningWorkspaceProcedure("viewer").query(async ({ ctx, input }) => ({
    names: await ctx.terminals.list(input.workspaceId),
  })),
  /**
   * Opens a new terminal under a fresh name the service picks, so a "+" never lands in someone
   * else's shell (a name chosen in the browser can be one another person opened meanwhile).
   */
  create: runningWorkspaceProcedure("editor").mutation(async ({ ctx, input }) => ({
    name: await ctx.terminals.create(input.workspaceId),
  })),
});
