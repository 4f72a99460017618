import { z } from "zod";
import { normalEmail } from "../../auth/accounts";
import { adminProcedure } from "../init";
import { recordAct } from "../record-act";

/** Where a link's secret goes: the page that lets its person set a password. */
const inviteUrl = (origin: string, secret: string) => `${origin}/invite/${secret}`;

/**
 * `user.invite` and `user.resetLink` (administrators only): single-use links, valid for seven
 * days, that let a person set a password (auth/invites.ts). The secret appears only in the answer.
 * A plain object of procedures, so the `user` router can hold them beside the administration's.
 */
export const inviteProcedures = {
  /** A link for a new account at `email`, in the site role `role`. */
  invite: adminProcedure
    .input(z.object({ email: z.email().max(320), role: z.enum(["admin", "member"]).default("member") }))
    .mutation(async ({ ctx, input }) => {
      const link = await ctx.invites.invite({
        email: input.email,
        role: input.role,
        createdBy: ctx.principal.userId,
      });
      recordAct(ctx, {
        action: "user.invited",
        target: normalEmail(input.email),
        detail: { role: input.role },
      });
      return { url: inviteUrl(ctx.origin, link.secret), expiresAt: link.expiresAt };
    }),
  /** A link that sets a new password for the account `userId` and signs its other sessions out. */
  resetLink: adminProcedure
    .input(z.object({ userId: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const link = await ctx.invites.reset({ userId: input.userId, createdBy: ctx.principal.userId });
      recordAct(ctx, { action: "user.reset_link", target: input.userId });
      return { url: inviteUrl(ctx.origin, link.secret), expiresAt: link.expiresAt };
    }),
};
