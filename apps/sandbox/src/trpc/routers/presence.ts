import { type PresencePerson, presenceOpenFileInput, presenceWatchInput } from "@coder/protocol";
import { TRPCError } from "@trpc/server";
import { TooManyTabsError } from "../../presence/presence-board";
import { router, workspaceProcedure } from "../init";

/** Who has the workspace open right now; anyone who may see the workspace sees and is seen. */
export const presenceRouter = router({
  /** Puts the caller's tab on the board while the subscription lasts; yields the board on each change. */
  watch: workspaceProcedure("viewer")
    .input(presenceWatchInput)
    .subscription(async function* ({ ctx, input, signal }): AsyncGenerator<PresencePerson[]> {
      await ctx.workspaces.get(ctx.workspaceId);
      let leave: () => void;
      try {
        leave = ctx.presence.join(ctx.workspaceId, ctx.principal, ctx.role, input.clientId);
      } catch (err) {
        if (!(err instanceof TooManyTabsError)) throw err;
        throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: err.message });
      }
      try {
        yield* ctx.presence.watch(ctx.workspaceId, ctx.principal, signal ?? new AbortController().signal);
      } finally {
        leave();
      }
    }),
  /** Says which file the caller's tab shows (null: none). */
  openFile: workspaceProcedure("viewer")
    .input(presenceOpenFileInput)
    .mutation(({ ctx, input }) => {
      ctx.presence.openFile(ctx.workspaceId, ctx.principal, input.clientId, input.path);
      return { ok: true as const };
    }),
});
