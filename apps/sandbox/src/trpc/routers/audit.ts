import { z } from "zod";
import { auditFilters } from "../../audit/audit-filters";
import type { AuditReader } from "../../audit/audit-log";
import { MAX_AUDIT_PAGE } from "../../audit/audit-log";
import { ownerProcedure, router } from "../init";

/** The audit trail: an admin reads all of it, a user the entries of the workspaces they own; never a guest. */
export const auditRouter = router({
  list: ownerProcedure
    .input(
      z.object({
        filters: auditFilters.default({}),
        cursor: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(MAX_AUDIT_PAGE).default(100),
      }),
    )
    .query(({ ctx, input }) => {
      const reader: AuditReader =
        ctx.principal.siteRole === "admin" ? { all: true } : { ownerId: ctx.principal.userId };
      return ctx.audit.list(reader, input.filters, {
        limit: input.limit,
        ...(input.cursor ? { cursor: input.cursor } : {}),
      });
    }),
});
