import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { authorize, ownerProcedure, router, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

const memberRole = z.enum(["viewer", "editor"]);
const userId = z.string().min(1).max(64);
const email = z.string().trim().email("give an e-mail address").max(320);

/** Share links and named shares: only the workspace's owner creates, lists and revokes them. */
export const shareRouter = router({
  /**
   * Without a person: a new anonymous link; its secret appears only here, in `url`. No
   * `expiresInSeconds`: it never expires. With `userId` or `email`: shares the workspace with that
   * person by name (or changes their role); `id` is theirs, `url` the workspace's page to send
   * them (it holds no secret: only their own login opens it), `member` how the owner's list shows them.
   */
  create: workspaceProcedure("owner")
    .input(
      z.object({
        role: memberRole,
        expiresInSeconds: z
          .number()
          .int()
          .min(1)
          .max(365 * 86_400)
          .optional(),
        userId: userId.optional(),
        email: email.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await ctx.workspaces.get(input.workspaceId);
      if (input.userId !== undefined || input.email !== undefined) {
        if (input.userId !== undefined && input.email !== undefined) {
          throw new TRPCError({
            code: "BAD_REQUEST",
            message: "name the person by userId or by email, not both",
          });
        }
        const target =
          input.userId !== undefined ? { userId: input.userId } : { email: input.email as string };
        const member = await ctx.members.share(input.workspaceId, target, input.role);
        recordAct(ctx, {
          action: "share.created",
          workspaceId: input.workspaceId,
          target: member.userId,
          detail: { role: member.role, person: member.name },
        });
        return {
          id: member.userId,
          url: `${ctx.origin}/w/${input.workspaceId}`,
          role: member.role,
          expiresAt: null,
          member,
        };
      }
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
  /** The people the workspace is shared with by name: name, e-mail, role, connections open. */
  people: workspaceProcedure("owner").query(({ ctx, input }) => ctx.members.people(input.workspaceId)),
  /**
   * `shareId`: marks the link revoked, closes its guests' connections at once and tells the
   * workspace's talk. `workspaceId` and `userId`: ends that person's named share, closes their
   * sockets and subscriptions on the workspace (here at once, elsewhere within the sweeper's pass)
   * and tells the talk the same way.
   */
  revoke: ownerProcedure
    .input(
      z.union([
        z.object({ shareId: z.string().min(1).max(64) }),
        z.object({ workspaceId: z.string().min(1).max(64), userId }),
      ]),
    )
    .mutation(async ({ ctx, input }) => {
      if ("userId" in input) {
        await authorize(ctx, "owner", input.workspaceId);
        const member = await ctx.members.revoke(input.workspaceId, input.userId);
        if (!member) {
          throw new TRPCError({ code: "NOT_FOUND", message: "the workspace is not shared with that person" });
        }
        ctx.talk.memberRevoked(input.workspaceId, member);
        recordAct(ctx, { action: "share.revoked", workspaceId: input.workspaceId, target: input.userId });
        return { ok: true as const };
      }
      const workspaceId = await ctx.shares.workspaceOf(input.shareId);
      if (workspaceId === null) {
        throw new TRPCError({ code: "NOT_FOUND", message: "there is no such share link" });
      }
      await authorize(ctx, "owner", workspaceId);
      ctx.talk.revoked(workspaceId, await ctx.shares.revoke(input.shareId));
      recordAct(ctx, { action: "share.revoked", workspaceId, target: input.shareId });
      return { ok: true as const };
    }),
});
