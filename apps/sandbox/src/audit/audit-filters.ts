import { AUDIT_ACTIONS } from "@coder/protocol";
import { z } from "zod";

const isoTime = z.iso.datetime({ offset: true }).transform((time) => new Date(time).toISOString());

/** The filters of `audit.list` and `GET /api/audit`, checked the same way at both doors. */
export const auditFilters = z.object({
  workspaceId: z.string().min(1).max(64).optional(),
  actorId: z.string().min(1).max(128).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  since: isoTime.optional(),
  until: isoTime.optional(),
});
