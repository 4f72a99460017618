import type { IncomingMessage, ServerResponse } from "node:http";
import { workspaceId as workspaceIdSchema } from "@coder/protocol";
import { type Principal, roleAllows, roleOn } from "../auth/principal";
import { streamArchive } from "../imports/export-archive";
import {
  TooManyUploadsError,
  type Uploader,
  type UploadStore,
  UploadTooLargeError,
} from "../imports/upload-store";
import type { WorkspaceDriver } from "../workspaces/driver";
import { WorkspaceError, type WorkspaceService } from "../workspaces/workspace-service";

export interface ImportRouteDeps {
  principalOf(req: IncomingMessage): Promise<Principal | null>;
  uploads: UploadStore;
  workspaces: WorkspaceService;
  driver: WorkspaceDriver;
  log(line: string): void;
}

const ARCHIVE_PATH = /^\/api\/workspaces\/([^/]+)\/archive$/;

function json(res: ServerResponse, status: number, body: unknown, close = false): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    ...(close ? { connection: "close" } : {}),
  });
  res.end(JSON.stringify(body));
}

/** A browser's file name, as a label: its last path part, printable, at most 255 characters. */
function uploadName(raw: string | null): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  return base.replace(/[^\p{L}\p{N} ._+()-]/gu, "_").slice(0, 255) || "upload";
}

/** Whose allowance an upload uses: the owner's, or (for a guest) their share link's. */
function uploaderOf(principal: Principal): Uploader {
  return principal.kind === "owner"
    ? { session: principal.sessionId, person: "owner", guest: false }
    : { session: principal.sessionId, person: `link:${principal.shareId}`, guest: true };
}

/**
 * `POST /api/uploads` and `GET /api/workspaces/<id>/archive`; false for any other path. The Host
 * and (for the POST) the Origin were checked by the server before.
 */
export async function handleImportRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ImportRouteDeps,
): Promise<boolean> {
  if (url.pathname === "/api/uploads") {
    if (req.method !== "POST") json(res, 405, { error: "use POST" });
    else await receiveUpload(req, res, url, deps);
    return true;
  }
  const archive = ARCHIVE_PATH.exec(url.pathname);
  if (archive) {
    if (req.method !== "GET") json(res, 405, { error: "use GET" });
    else await sendArchive(res, archive[1] ?? "", await deps.principalOf(req), deps);
    return true;
  }
  return false;
}

/** Owners and editor guests (who drop files into their workspace) may upload; viewers may not. */
async function receiveUpload(req: IncomingMessage, res: ServerResponse, url: URL, deps: ImportRouteDeps) {
  const principal = await deps.principalOf(req);
  if (!principal) return json(res, 401, { error: "log in first" }, true);
  if (principal.kind === "guest" && !roleAllows(principal.role, "editor"))
    return json(res, 403, { error: `uploading needs the editor role; you are ${principal.role}` }, true);
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > deps.uploads.maxBytes) {
    // Not read: the connection closes once the answer is out.
    res.once("finish", () => req.destroy());
    return json(res, 413, { error: new UploadTooLargeError(deps.uploads.maxBytes).message }, true);
  }
  try {
    const upload = await deps.uploads.receive(
      req,
      uploaderOf(principal),
      uploadName(url.searchParams.get("name")),
    );
    json(res, 201, { uploadId: upload.id });
  } catch (err) {
    if (err instanceof UploadTooLargeError) return json(res, 413, { error: err.message }, true);
    if (err instanceof TooManyUploadsError) return json(res, 429, { error: err.message }, true);
    throw err;
  }
}

/** The workspace's files as a .tar.gz: owners and editors only (a viewer sees, but does not take). */
async function sendArchive(
  res: ServerResponse,
  id: string,
  principal: Principal | null,
  deps: ImportRouteDeps,
) {
  if (!principal) return json(res, 401, { error: "log in first" });
  if (!workspaceIdSchema.safeParse(id).success) return json(res, 404, { error: "no such workspace" });
  const role = roleOn(principal, id);
  if (role === null) return json(res, 403, { error: "you have no access to that workspace" });
  if (!roleAllows(role, "editor"))
    return json(res, 403, { error: `downloading needs the editor role; you are ${role}` });
  let workspace: Awaited<ReturnType<WorkspaceService["get"]>>;
  try {
    workspace = await deps.workspaces.get(id);
  } catch (err) {
    if (err instanceof WorkspaceError) return json(res, 404, { error: "no such workspace" });
    throw err;
  }
  if (workspace.status === "creating" || workspace.status === "missing")
    return json(res, 409, { error: `the workspace is ${workspace.status}` });
  const filename = `${workspace.name.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 64) || "workspace"}.tar.gz`;
  res.writeHead(200, {
    "content-type": "application/gzip",
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
  });
  await streamArchive(deps.driver, id, workspace.image, res, deps.log);
}
