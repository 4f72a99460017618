import { workspaceId } from "@coder/protocol";
import { z } from "zod";
import { adminProcedure, router } from "../init";
import { recordAct } from "../record-act";
import { userId } from "./user";

/** Every workspace of the service, whoever owns it (admins only). */
export const adminRouter = router({
  /** Each workspace with its owner, status and what it takes from the machine while it runs. */
  workspaces: adminProcedure.query(({ ctx }) => ctx.people.workspaces()),
});

/** `workspace.transfer`: an admin gives a workspace to another user (merged into the workspace router). */
export const workspaceTransferRouter = router({
  transfer: adminProcedure.input(z.object({ workspaceId, userId })).mutation(async ({ ctx, input }) => {
    await ctx.people.transfer(input.workspaceId, input.userId);
    recordAct(ctx, { action: "workspace.transferred", workspaceId: input.workspaceId, target: input.userId });
    return { ok: true as const };
  }),
});
