import { actorOf, clientOf } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { Principal } from "../auth/principal";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { streamArchive } from "../imports/export-archive";
import { type Uploader, type UploadStore, UploadTooLargeError } from "../imports/upload-store";
import { json } from "./http-answers";
import { HttpRefusal } from "./http-errors";
import type { HttpRoute } from "./http-routes";

export interface ImportRouteDeps {
  uploads: UploadStore;
  driver: WorkspaceDriver;
  audit: AuditLog;
  log(line: string): void;
}

/** A browser's file name, as a label: its last path part, printable, at most 255 characters. */
function uploadName(raw: string | null): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  return base.replace(/[^\p{L}\p{N} ._+()-]/gu, "_").slice(0, 255) || "upload";
}

/** Whose allowance an upload uses: the owner's, or (for a guest) their share link's. */
function uploaderOf(principal: Principal): Uploader {
  return principal.kind === "user"
    ? { session: principal.sessionId, person: `user:${principal.userId}`, guest: false }
    : { session: principal.sessionId, person: `link:${principal.shareId}`, guest: true };
}

/** `POST /api/uploads` (an archive to fill a workspace from) and `GET /api/workspaces/<id>/archive`. */
export function importRoutes(deps: ImportRouteDeps): HttpRoute[] {
  return [
    {
      // Owners and editor guests (who drop files into their workspace) may upload; viewers may not.
      method: "POST",
      path: "/api/uploads",
      access: "signed-in",
      role: "editor",
      doing: "uploading",
      unreadBody: true,
      async handle({ req, res, url, principal }) {
        const declared = Number(req.headers["content-length"] ?? Number.NaN);
        if (declared > deps.uploads.maxBytes) {
          // Not read: the connection closes once the answer is out.
          res.once("finish", () => req.destroy());
          throw new UploadTooLargeError(deps.uploads.maxBytes);
        }
        const upload = await deps.uploads.receive(
          req,
          uploaderOf(principal),
          uploadName(url.searchParams.get("name")),
        );
        json(res, 201, { uploadId: upload.id });
      },
    },
    {
      // The workspace's files as a .tar.gz: a viewer sees, but does not take.
      method: "GET",
      path: "/api/workspaces/:workspaceId/archive",
      access: "workspace",
      role: "editor",
      doing: "downloading",
      async handle({ req, res, workspace, principal }) {
        if (workspace.status === "creating" || workspace.status === "missing")
          throw new HttpRefusal(409, `the workspace is ${workspace.status}`);
        deps.audit.record({
          actor: actorOf(principal),
          action: "workspace.exported",
          workspaceId: workspace.id,
          client: clientOf(req),
        });
        const filename = `${workspace.name.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 64) || "workspace"}.tar.gz`;
        res.writeHead(200, {
          "content-type": "application/gzip",
          "content-disposition": `attachment; filename="${filename}"`,
          "cache-control": "no-store",
        });
        await streamArchive(deps.driver, workspace.id, workspace.image, res, deps.log);
      },
    },
  ];
}
