import { z } from "zod";
import { limitsOverride } from "../../config/limits";
import { adminProcedure, router } from "../init";
import { recordAct } from "../record-act";
import { inviteProcedures } from "./invite";

/** A user id as the service makes them (a UUID; the first admin's is a fixed word). */
export const userId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "that is not a user id");

/** The administration of people (admins only): who there is, their role, limits and suspension. */
export const userRouter = router({
  ...inviteProcedures,
  /** Every user with role, suspension, when they came and were last seen, workspace count and limits. */
  list: adminProcedure.query(({ ctx }) => ctx.people.list()),
  /**
   * A ping each time the people change (someone joined, an account was changed, deleted or given a
   * workspace), and once at the start: the page then re-reads `list`. It carries nothing itself.
   */
  changes: adminProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const _ of ctx.people.changes.follow(signal ?? new AbortController().signal)) {
      yield { type: "changed" as const };
    }
  }),
  /** Changes what is given; `limits: null` puts the user back on CODER_DEFAULT_LIMITS. */
  update: adminProcedure
    .input(
      z.object({
        userId,
        role: z.enum(["admin", "member"]).optional(),
        limits: limitsOverride.nullable().optional(),
        suspended: z.boolean().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { userId: id, suspended, ...change } = input;
      const user = await ctx.people.update(id, { ...change, suspended });
      if (change.role !== undefined || change.limits !== undefined) {
        recordAct(ctx, { action: "user.updated", target: id, detail: change });
      }
      if (suspended !== undefined) {
        recordAct(ctx, { action: suspended ? "user.suspended" : "user.unsuspended", target: id });
      }
      return user;
    }),
  /** Deletes an account that owns no workspace. */
  delete: adminProcedure.input(z.object({ userId })).mutation(async ({ ctx, input }) => {
    await ctx.people.remove(input.userId);
    recordAct(ctx, { action: "user.deleted", target: input.userId });
    return { ok: true as const };
  }),
});
