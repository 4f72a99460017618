import { talkListInput, talkSendInput, talkSettingInput, talkWatchInput } from "@coder/protocol";
import { tracked } from "@trpc/server";
import type { Principal, Role } from "../../auth/principal";
import type { TalkService } from "../../talk/talk-service";
import type { WorkspaceService } from "../../workspaces/workspace-service";
import { router, withMappedErrors, workspaceProcedure } from "../init";

/** The talk's batches as tracked events, once the workspace is known to exist. */
async function* followTalk(
  ctx: {
    talk: TalkService;
    workspaces: WorkspaceService;
    principal: Principal;
    role: Role;
    workspaceId: string;
  },
  afterId: number | null,
  signal: AbortSignal,
) {
  await ctx.workspaces.get(ctx.workspaceId);
  for await (const batch of ctx.talk.watch(ctx.workspaceId, ctx.principal, ctx.role, afterId, signal)) {
    yield tracked(String(batch.lastId ?? 0), batch.update);
  }
}

/**
 * The people's talk of a workspace (not the agent's chat): everyone with a role reads it; owner and
 * editors write, viewers too unless the owner turned that off. Authors are the callers' logins.
 */
export const talkRouter = router({
  /**
   * Who may write, and the lines after `after` (a page asking again sends its last line's id), or
   * without it the kept ones (the latest 500); oldest first.
   */
  list: workspaceProcedure("viewer")
    .input(talkListInput)
    .query(async ({ ctx, input }) => {
      await ctx.workspaces.get(ctx.workspaceId);
      return ctx.talk.list(ctx.workspaceId, ctx.principal, ctx.role, input.after ?? null);
    }),
  /**
   * The lines after `lastEventId` (none: the kept ones), then each new batch and each change of the
   * setting, live; ids are tracked, so a reconnect continues where it stopped.
   */
  watch: workspaceProcedure("viewer")
    .input(talkWatchInput)
    .subscription(({ ctx, input, signal }) =>
      withMappedErrors(
        followTalk(
          ctx,
          input.lastEventId ? Number(input.lastEventId) : null,
          signal ?? new AbortController().signal,
        ),
      ),
    ),
  /** Sends a message as the caller (at most 2000 characters, 10 per 10 s). */
  send: workspaceProcedure("viewer")
    .input(talkSendInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.workspaces.get(ctx.workspaceId);
      return ctx.talk.send(ctx.workspaceId, ctx.principal, ctx.role, input.text);
    }),
  /** The owner lets viewers write, or stops them. */
  setViewersMayWrite: workspaceProcedure("owner")
    .input(talkSettingInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.workspaces.get(ctx.workspaceId);
      await ctx.talk.setViewersMayWrite(ctx.workspaceId, input.viewersMayWrite);
      return { ok: true as const };
    }),
});
