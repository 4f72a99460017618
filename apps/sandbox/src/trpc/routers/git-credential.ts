import { MAX_CREDENTIAL_HOST_CHARS } from "@coder/protocol";
import { z } from "zod";
import { ServiceError } from "../../errors/service-error";
import { ownerProcedure, router, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

const ONE_LINE = /^\P{Cc}*$/u;
const host = z.string().min(1, "give the host").max(MAX_CREDENTIAL_HOST_CHARS);

/**
 * Each person's git tokens per host: stored sealed, listed without the token, never answered,
 * logged or audited with it. Git gets one only through the daemon's credential helper
 * (git-credentials/credential-calls.ts). Only users keep tokens, never guests.
 */
export const gitCredentialRouter = router({
  /** Stores (or replaces) the caller's token for `host` (`name[:port]` as the remote URL has it). */
  set: ownerProcedure
    .input(
      z.object({
        host,
        // git reads a login as lines: a line break or NUL in it would add attributes of its own.
        username: z
          .string()
          .trim()
          .max(256)
          .regex(ONE_LINE, "give a user name without control characters")
          .optional(),
        token: z
          .string()
          .min(1, "give the token")
          .max(4096, "a token is at most 4096 characters")
          .regex(ONE_LINE, "give the token without control characters"),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const stored = await ctx.gitCredentials.set(ctx.principal.userId, input);
      recordAct(ctx, {
        action: "git.credential_set",
        target: stored.host,
        detail: { username: stored.username },
      });
      return stored;
    }),
  /** The caller's stored credentials: host, user name and when, never the token. */
  list: ownerProcedure.query(({ ctx }) => ctx.gitCredentials.list(ctx.principal.userId)),
  delete: ownerProcedure.input(z.object({ host })).mutation(async ({ ctx, input }) => {
    await ctx.gitCredentials.delete(ctx.principal.userId, input.host);
    recordAct(ctx, { action: "git.credential_deleted", target: input.host });
    return { ok: true as const };
  }),
  /**
   * The workspace's owner lets git run in its terminals and by its agent use their token for
   * `host` (every push by the agent still asks first).
   */
  bind: workspaceProcedure("owner")
    .input(z.object({ host }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.principal.kind !== "user") throw ownersOnly();
      const bound = await ctx.gitCredentials.bind(ctx.workspaceId, ctx.principal.userId, input.host);
      recordAct(ctx, { action: "git.credential_bound", workspaceId: ctx.workspaceId, target: bound.host });
      return bound;
    }),
  unbind: workspaceProcedure("owner")
    .input(z.object({ host }))
    .mutation(async ({ ctx, input }) => {
      await ctx.gitCredentials.unbind(ctx.workspaceId, input.host);
      recordAct(ctx, { action: "git.credential_unbound", workspaceId: ctx.workspaceId, target: input.host });
      return { ok: true as const };
    }),
  /** The hosts bound to the workspace (what its owner sees in the panel). */
  bindings: workspaceProcedure("owner").query(async ({ ctx }) => ({
    hosts: await ctx.gitCredentials.bindings(ctx.workspaceId),
  })),
});

function ownersOnly() {
  return new ServiceError("forbidden", "only the workspace's owner binds their own tokens to it");
}
