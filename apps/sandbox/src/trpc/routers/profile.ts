import { z } from "zod";
import { guestName } from "../../auth/guest-name";
import { ownerProcedure, router } from "../init";

/** What a signed-in user changes about themselves. */
export const profileRouter = router({
  /**
   * Renames the caller: presence, cursors, terminals and the talk show the new name from their
   * next connection on. The same rules as a guest's name (visible, never the agent's or "Owner").
   */
  update: ownerProcedure.input(z.object({ displayName: guestName })).mutation(async ({ ctx, input }) => {
    await ctx.profiles.rename(ctx.principal.userId, input.displayName);
    return { name: input.displayName };
  }),
});
