import { type PresencePerson, presenceOpenFileInput, presenceWatchInput } from "@coder/protocol";
import type { Principal, Role } from "../../auth/principal";
import type { PresenceBoard } from "../../presence/presence-board";
import type { WorkspaceService } from "../../workspaces/workspace-service";
import { router, withMappedErrors, workspaceProcedure } from "../init";

/** Puts a tab on the board while the stream lasts and yields the board on each change. */
async function* watchBoard(
  ctx: {
    presence: PresenceBoard;
    workspaces: WorkspaceService;
    principal: Principal;
    role: Role;
    workspaceId: string;
  },
  clientId: string,
  signal: AbortSignal,
): AsyncGenerator<PresencePerson[]> {
  await ctx.workspaces.get(ctx.workspaceId);
  const leave = ctx.presence.join(ctx.workspaceId, ctx.principal, ctx.role, clientId);
  try {
    yield* ctx.presence.watch(ctx.workspaceId, ctx.principal, signal);
  } finally {
    leave();
  }
}

/** Who has the workspace open right now; anyone who may see the workspace sees and is seen. */
export const presenceRouter = router({
  /** Puts the caller's tab on the board while the subscription lasts; yields the board on each change. */
  watch: workspaceProcedure("viewer")
    .input(presenceWatchInput)
    .subscription(({ ctx, input, signal }) =>
      withMappedErrors(watchBoard(ctx, input.clientId, signal ?? new AbortController().signal)),
    ),
  /** Says which file the caller's tab shows (null: none). */
  openFile: workspaceProcedure("viewer")
    .input(presenceOpenFileInput)
    .mutation(({ ctx, input }) => {
      ctx.presence.openFile(ctx.workspaceId, ctx.principal, input.clientId, input.path);
      return { ok: true as const };
    }),
});
