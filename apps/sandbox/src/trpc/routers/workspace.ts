import { createWorkspaceInput, retryImportInput, type WorkspaceEvent } from "@coder/protocol";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { displayName, type Principal, roleOn } from "../../auth/principal";
import { ownerProcedure, router, signedInProcedure, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** Whether `principal` may see an event of the workspace list (a guest sees only their workspace). */
function visible(principal: Principal, event: WorkspaceEvent): boolean {
  if (event.type === "resync") return true;
  return roleOn(principal, event.type === "upsert" ? event.workspace.id : event.workspaceId) !== null;
}

export const workspaceRouter = router({
  /** The workspaces the caller may open: all of them for the owner, a guest's own for a guest. */
  list: signedInProcedure.query(async ({ ctx }) =>
    (await ctx.workspaces.list()).filter((w) => roleOn(ctx.principal, w.id) !== null),
  ),
  /** Who the caller is (the owner, or a guest), so the list offers the owner's controls to the owner only. */
  whoami: signedInProcedure.query(({ ctx }) => ({
    kind: ctx.principal.kind,
    name: displayName(ctx.principal),
    // Only an admin is offered the administration page.
    admin: ctx.principal.kind === "user" && ctx.principal.siteRole === "admin",
  })),
  get: workspaceProcedure("viewer").query(({ ctx, input }) => ctx.workspaces.get(input.workspaceId)),
  /** Who the caller is on this workspace, so the page offers only what their role allows. */
  access: workspaceProcedure("viewer").query(({ ctx }) => ({
    role: ctx.role,
    kind: ctx.principal.kind,
    name: displayName(ctx.principal),
  })),
  create: ownerProcedure.input(createWorkspaceInput).mutation(async ({ ctx, input }) => {
    const { source, ...workspace } = input;
    // Refused sources (a URL the policy does not allow, a foreign upload) fail here, before anything is made.
    const fill = source ? ctx.imports.prepare(source, ctx.principal.sessionId) : undefined;
    const created = await ctx.workspaces.create(workspace, ctx.principal.userId, fill);
    recordAct(ctx, { action: "workspace.created", workspaceId: created.id, detail: { name: created.name } });
    if (source) recordAct(ctx, { action: "workspace.imported", workspaceId: created.id, detail: { source } });
    return created;
  }),
  retryImport: workspaceProcedure("owner")
    .input(retryImportInput)
    .mutation(async ({ ctx, input }) => {
      const workspace = await ctx.workspaceImports.retryImport(input.workspaceId, input.token);
      recordAct(ctx, {
        action: "workspace.imported",
        workspaceId: input.workspaceId,
        detail: { retry: true },
      });
      return workspace;
    }),
  start: workspaceProcedure("owner").mutation(async ({ ctx, input }) => {
    const workspace = await ctx.workspaces.start(input.workspaceId);
    recordAct(ctx, { action: "workspace.started", workspaceId: input.workspaceId });
    return workspace;
  }),
  /** Opening a workspace the service stopped for being idle wakes it, whoever opens it. */
  resume: workspaceProcedure("viewer").mutation(({ ctx, input }) => ctx.workspaces.resume(input.workspaceId)),
  stop: workspaceProcedure("owner").mutation(async ({ ctx, input }) => {
    const workspace = await ctx.workspaces.stop(input.workspaceId);
    recordAct(ctx, { action: "workspace.stopped", workspaceId: input.workspaceId });
    return workspace;
  }),
  delete: workspaceProcedure("owner").mutation(async ({ ctx, input }) => {
    // Its guests lose access first, so none keeps a connection to a workspace being removed.
    await ctx.shares.revokeWorkspace(input.workspaceId);
    await ctx.workspaces.remove(input.workspaceId);
    recordAct(ctx, { action: "workspace.deleted", workspaceId: input.workspaceId });
    return { ok: true as const };
  }),
  /** Live changes to the workspace list, filtered like `list`; on resync the client refetches `list`. */
  events: signedInProcedure
    .input(z.object({ lastEventId: z.string().nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      for await (const e of ctx.workspaces.events.subscribe(input?.lastEventId, signal)) {
        if (e.kind === "resync") yield tracked("resync", { type: "resync" as const });
        else if (visible(ctx.principal, e.item.data)) yield tracked(e.item.id, e.item.data);
      }
    }),
});
