import { createWorkspaceInput, workspaceRef } from "@coder/protocol";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { authedProcedure, router } from "../init";

export const workspaceRouter = router({
  list: authedProcedure.query(({ ctx }) => ctx.workspaces.list()),
  get: authedProcedure.input(workspaceRef).query(({ ctx, input }) => ctx.workspaces.get(input.workspaceId)),
  create: authedProcedure
    .input(createWorkspaceInput)
    .mutation(({ ctx, input }) => ctx.workspaces.create(input)),
  start: authedProcedure
    .input(workspaceRef)
    .mutation(({ ctx, input }) => ctx.workspaces.start(input.workspaceId)),
  stop: authedProcedure
    .input(workspaceRef)
    .mutation(({ ctx, input }) => ctx.workspaces.stop(input.workspaceId)),
  delete: authedProcedure.input(workspaceRef).mutation(async ({ ctx, input }) => {
    await ctx.workspaces.remove(input.workspaceId);
    return { ok: true as const };
  }),
  /** Live changes to the workspace list; on resync the client refetches `list`. */
  events: authedProcedure
    .input(z.object({ lastEventId: z.string().nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      for await (const e of ctx.workspaces.events.subscribe(input?.lastEventId, signal)) {
        if (e.kind === "resync") yield tracked("resync", { type: "resync" as const });
        else yield tracked(e.item.id, e.item.data);
      }
    }),
});
