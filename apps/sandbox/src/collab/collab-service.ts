import path from "node:path";
import { type CollabUser, containerLayout, MAX_COLLAB_FILE_BYTES } from "@coder/protocol";
import { z } from "zod";
import type { LiveFiles } from "../agent/workspace/workspace-port";
import type { Principal } from "../auth/principal";
import type { DaemonPool } from "../daemon/daemon-pool";
import type { SocketRoute } from "../sockets/socket-route";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { agentCollabUser } from "./collab-user";
import { RestingDocuments } from "./resting-documents";
import type { SharedDocuments } from "./shared-documents";
import { WorkspaceDocuments } from "./workspace-documents";

/** Tool arguments' paths as document names (canonical, relative to the workspace); undefined: all. */
function documentPaths(paths: readonly string[] | "any"): string[] | undefined {
  if (paths === "any") return undefined;
  const root = `${containerLayout.workspace}/`;
  return paths.map((p) => {
    const relative = p.startsWith(root) ? p.slice(root.length) : p;
    return path.posix.normalize(relative).replace(/^\.\//, "");
  });
}

/** A frame carries at most a whole document's update (a first sync of a full file, a large paste). */
export const MAX_COLLAB_FRAME_BYTES = 4 * MAX_COLLAB_FILE_BYTES;

/** The last path segment of `/collab/<workspace>/<tab>`: the tab's own id (for the log only). */
const tabId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export interface CollabServiceDeps {
  workspaces: WorkspaceService;
  /** Where the documents are read and written, and their files' changes come from. */
  daemons: DaemonPool;
  /** Set: the documents are shared with the other service instances (CODER_REDIS_URL). */
  shared?: SharedDocuments;
  /** False: no batching of outgoing updates (CODER_COLLAB_BATCHING=off, the load bench's A/B switch). */
  batching?: boolean;
  log(line: string): void;
}

/** Who a collaboration socket's cursor says it is, from the service's own records. */
export type IdentityOf = (workspaceId: string, principal: Principal) => CollabUser;

/**
 * Live co-editing for every workspace: the `/collab` socket route and, for the agent, the two
 * moments it must meet the documents (flush before a tool touches files, merge right after).
 */
export class CollabService implements LiveFiles {
  private readonly byWorkspace = new Map<string, WorkspaceDocuments>();
  private readonly rests = new RestingDocuments();
  private readonly following = new AbortController();

  constructor(private readonly deps: CollabServiceDeps) {
    void this.forgetRestsOfStoppedWorkspaces();
  }

  /** `/collab/<workspace>/<tab>`: a viewer's documents are read-only; their cursor still shows. */
  route(identity: IdentityOf): SocketRoute {
    return {
      prefix: "collab",
      name: tabId,
      minimumRole: "viewer",
      maxPayload: MAX_COLLAB_FRAME_BYTES,
      serve: (ws, { workspaceId }, access) =>
        this.documents(workspaceId).accept(ws, access, () => identity(workspaceId, access.principal)),
    };
  }

  /** Pending typing in the workspace's live documents among `paths` goes to disk. */
  async flush(workspaceId: string, paths: readonly string[] | "any"): Promise<void> {
    await this.byWorkspace.get(workspaceId)?.flush(documentPaths(paths));
  }

  /**
   * An agent tool call may change `paths`: their changes show as the agent's (working for
   * `prompter`); the result merges them at once.
   */
  agentChanging(
    workspaceId: string,
    paths: readonly string[] | "any",
    prompter?: string | null,
  ): () => Promise<void> {
    const documents = this.byWorkspace.get(workspaceId);
    return (
      documents?.agentChanging(documentPaths(paths), agentCollabUser(prompter)) ?? (async () => undefined)
    );
  }

  /** The paths of the workspace's live documents. */
  liveDocuments(workspaceId: string): string[] {
    return this.byWorkspace.get(workspaceId)?.paths ?? [];
  }

  /** Writes every document back and closes them (the service stops). */
  async close(): Promise<void> {
    this.following.abort();
    await Promise.all([...this.byWorkspace.values()].map((docs) => docs.close()));
    await this.deps.shared?.close();
  }

  /** A stopped or deleted workspace costs no memory for documents nobody can have open. */
  private async forgetRestsOfStoppedWorkspaces(): Promise<void> {
    for await (const event of this.deps.workspaces.events.subscribe(undefined, this.following.signal)) {
      if (event.kind !== "event") continue;
      const change = event.item.data;
      const gone =
        change.type === "deleted"
          ? change.workspaceId
          : change.type === "upsert" && change.workspace.status !== "running"
            ? change.workspace.id
            : undefined;
      if (!gone) continue;
      this.rests.forget(gone);
      await this.deps.shared
        ?.forget(gone)
        .catch((error: Error) => this.deps.log(`collab: forgetting shared documents: ${error.message}`));
    }
  }

  private documents(workspaceId: string): WorkspaceDocuments {
    let docs = this.byWorkspace.get(workspaceId);
    if (!docs) {
      const sharing = this.deps.shared?.forWorkspace(workspaceId);
      const created = new WorkspaceDocuments({
        files: {
          read: (path) =>
            this.deps.daemons.call(workspaceId, (daemon) =>
              daemon.request("fs.read", { path, maxBytes: MAX_COLLAB_FILE_BYTES }),
            ),
          write: (path, content, expectedHash) =>
            this.deps.daemons.call(workspaceId, (daemon) =>
              daemon.request("fs.write", { path, content, expectedHash }),
            ),
        },
        changes: this.deps.daemons.fileFeed(workspaceId),
        log: this.deps.log,
        rests: sharing?.rests ?? this.rests.of(workspaceId),
        sharing,
        batching: this.deps.batching,
        idle: () => {
          if (this.byWorkspace.get(workspaceId) === created) this.byWorkspace.delete(workspaceId);
        },
      });
      docs = created;
      this.byWorkspace.set(workspaceId, docs);
    }
    return docs;
  }
}
