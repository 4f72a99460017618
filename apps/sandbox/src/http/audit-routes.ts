import { once } from "node:events";
import { auditFilters } from "../audit/audit-filters";
import type { AuditLog } from "../audit/audit-log";
import { validBody } from "./http-answers";
import { HttpRefusal } from "./http-errors";
import type { HttpRoute } from "./http-routes";

/**
 * `GET /api/audit?format=jsonl` (admins): the whole audit trail, or what the filters (the query's
 * `workspaceId`, `actorId`, `action`, `since`, `until`) pick, newest first, one JSON entry a line,
 * streamed a page at a time at the pace the client reads.
 */
export function auditRoutes(deps: { audit: AuditLog }): HttpRoute[] {
  return [
    {
      method: "GET",
      path: "/api/audit",
      access: "signed-in",
      role: "owner",
      admin: true,
      doing: "exporting the audit trail",
      async handle({ res, url }) {
        const format = url.searchParams.get("format") ?? "jsonl";
        if (format !== "jsonl") throw new HttpRefusal(400, "the only export format is jsonl (?format=jsonl)");
        const params = Object.fromEntries(url.searchParams);
        delete params.format;
        const filters = validBody(params, auditFilters.strict());
        res.writeHead(200, {
          "content-type": "application/x-ndjson; charset=utf-8",
          "content-disposition": 'attachment; filename="audit.jsonl"',
          "cache-control": "no-store",
        });
        for await (const entry of deps.audit.every({ all: true }, filters)) {
          if (res.destroyed) return;
          if (!res.write(`${JSON.stringify(entry)}\n`)) await once(res, "drain");
        }
        res.end();
      },
    },
  ];
}
