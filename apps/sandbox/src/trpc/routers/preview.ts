import { previewOpenInput, previewVisibilityInput } from "@coder/protocol";
import { router, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** The web apps a workspace serves, each at its own origin (issue 21; preview/ has the model). */
export const previewRouter = router({
  /** The workspace's listening ports with their process, visibility and preview URL (no token). */
  list: workspaceProcedure("viewer").query(async ({ ctx, input }) => ({
    ports: await ctx.previews.list(input.workspaceId),
  })),
  /** A one-time URL (its token valid 60 s) that lets the caller into the port's origin. */
  open: workspaceProcedure("viewer")
    .input(previewOpenInput)
    .mutation(async ({ ctx, input }) => {
      const url = await ctx.previews.open(ctx.principal, ctx.role, input.workspaceId, input.port, input.path);
      recordAct(ctx, {
        action: "preview.opened",
        workspaceId: input.workspaceId,
        detail: { port: input.port },
      });
      return { url };
    }),
  /** Who may open the port's preview; the owner decides. */
  setVisibility: workspaceProcedure("owner")
    .input(previewVisibilityInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.previews.setVisibility(input.workspaceId, input.port, input.visibility);
      recordAct(ctx, {
        action: "preview.visibility_changed",
        workspaceId: input.workspaceId,
        detail: { port: input.port, visibility: input.visibility },
      });
      return { ok: true as const };
    }),
});
