import { createWorkspaceInput, retryImportInput, type Workspace, type WorkspaceEvent } from "@coder/protocol";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { displayName } from "../../auth/principal";
import type { Listing } from "../../auth/workspace-roles";
import { ownerProcedure, router, signedInProcedure, workspaceProcedure } from "../init";
import { recordAct } from "../record-act";

/** A workspace as the list shows it to one caller: with their role there and its owner. */
export type ListedWorkspace = Workspace & Listing;

/** Which workspaces a list shows: the caller's own and shared ones; every one for an admin asking `all`. */
const listInput = z.object({ all: z.boolean().optional() }).optional();

export const workspaceRouter = router({
  /** The workspaces the caller may open: their own and those shared with them (a guest's one for a guest). */
  list: signedInProcedure.input(listInput).query(async ({ ctx, input }): Promise<ListedWorkspace[]> => {
    const listings = await ctx.roles.listings(ctx.principal, { all: input?.all });
    return (await ctx.workspaces.list()).flatMap((w) => {
      const listing = listings.get(w.id);
      return listing ? [{ ...w, ...listing }] : [];
    });
  }),
  /** Who the caller is, so the pages offer each person only what they may do. */
  whoami: signedInProcedure.query(({ ctx }) => {
    const { principal } = ctx;
    return {
      kind: principal.kind,
      name: displayName(principal),
      userId: principal.kind === "user" ? principal.userId : null,
      siteRole: principal.kind === "user" ? principal.siteRole : null,
    };
  }),
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
  /**
   * Live changes to the workspace list, filtered and shaped like `list` (each upsert with the
   * caller's role and the owner, looked up when it happens); on resync the client refetches `list`.
   * A deletion reaches those to whom the stream showed the workspace, or whose list had it.
   */
  events: signedInProcedure
    .input(z.object({ lastEventId: z.string().nullish(), all: z.boolean().optional() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      const shown = new Set((await ctx.roles.listings(ctx.principal, { all: input?.all })).keys());
      for await (const e of ctx.workspaces.events.subscribe(input?.lastEventId, signal)) {
        if (e.kind === "resync") {
          yield tracked("resync", { type: "resync" as const });
          continue;
        }
        const event: WorkspaceEvent = e.item.data;
        if (event.type === "deleted") {
          if (shown.delete(event.workspaceId)) yield tracked(e.item.id, event);
          continue;
        }
        // A workspace's ports reach those to whom the stream shows it (every role may list them).
        if (event.type === "ports") {
          if (shown.has(event.workspaceId)) yield tracked(e.item.id, event);
          continue;
        }
        if (event.type !== "upsert") continue;
        const listing = (
          await ctx.roles.listings(ctx.principal, { all: input?.all, only: event.workspace.id })
        ).get(event.workspace.id);
        if (!listing) continue;
        shown.add(event.workspace.id);
        const workspace: ListedWorkspace = { ...event.workspace, ...listing };
        yield tracked(e.item.id, { type: "upsert" as const, workspace });
      }
    }),
});
