import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { ownerProcedure, router, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** Share links: only the owner creates, lists and revokes them. */
export const shareRouter = router({
  /** A new link; its secret appears only here, in `url`. No `expiresInSeconds`: it never expires. */
  create: workspaceProcedure("owner")
    .input(
      z.object({
        role: z.enum(["viewer", "editor"]),
        expiresInSeconds: z
          .number()
          .int()
          .min(1)
          .max(365 * 86_400)
          .optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await ctx.workspaces.get(input.workspaceId);
      const link = await ctx.shares.create(input.workspaceId, input.role, input.expiresInSeconds);
      recordAct(ctx, {
        action: "share.created",
        workspaceId: input.workspaceId,
        target: link.id,
        detail: { role: link.role },
      });
      return {
        id: link.id,
        url: `${ctx.origin}/s/${link.secret}`,
        role: link.role,
        expiresAt: link.expiresAt,
      };
    }),
  /** The workspace's links (never their secrets), who joined and how many connections each holds. */
  list: workspaceProcedure("owner").query(({ ctx, input }) => ctx.shares.list(input.workspaceId)),
  /** Marks the link revoked, closes its guests' connections at once and tells the workspace's talk. */
  revoke: ownerProcedure
    .input(z.object({ shareId: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const workspaceId = await ctx.shares.workspaceOf(input.shareId);
      if (workspaceId === null) {
        throw new TRPCError({ code: "NOT_FOUND", message: "there is no such share link" });
      }
      ctx.talk.revoked(workspaceId, await ctx.shares.revoke(input.shareId));
      recordAct(ctx, { action: "share.revoked", workspaceId, target: input.shareId });
      return { ok: true as const };
    }),
});
