import type { FileChange, FileMatches, GitEvent, ListeningPort, WorkspaceStatus } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { ServiceError } from "../errors/service-error";
import { Feed } from "../events/feed";
import { CallListeners } from "./call-listeners";
import {
  type DaemonAnswerers,
  DaemonConnection,
  type DaemonOptions,
  DaemonUnavailableError,
} from "./daemon-connection";

/** The states a workspace passes through on its way to running. */
const BEING_STARTED: ReadonlySet<WorkspaceStatus> = new Set(["creating", "starting"]);

/** A batch of a search's matches, or word that the daemon sent one the contract refused. */
export type SearchMatchesBatch = FileMatches[] | { malformed: true };

export interface FileChangeBatch {
  changes: FileChange[];
}

/**
 * What the pool asks the workspaces' lifecycle (a floor above it): a workspace's name and status,
 * throwing when there is no such workspace.
 */
export type WorkspaceLookup = (id: string) => Promise<{ name: string; status: WorkspaceStatus }>;

/**
 * How soon a dropped connection of a running workspace is made again (later than a caller's own next
 * call usually comes: that call makes it, as before), and the longest wait between tries.
 */
const RECONNECT_FIRST_MS = 5000;
const RECONNECT_MAX_MS = 30_000;

export interface DaemonPoolDeps {
  /** Opens each daemon in its workspace's container. */
  driver: WorkspaceDriver;
  log: (line: string) => void;
  /** How a workspace's daemon is started (daemon-connection.ts daemonCommand) and its timeouts. */
  options: DaemonOptions;
  workspace: WorkspaceLookup;
  /** Answers what each workspace's daemon asks (a login for git: git-credentials/), given the workspace. */
  answer?: (workspaceId: string) => DaemonAnswerers;
}

/**
 * The daemon connection of each workspace, and where the daemons' notifications go: file changes
 * into the workspace's feed, a tool's progress and a search's matches to whoever follows that call
 * in that workspace.
 */
export class DaemonPool {
  private readonly connections = new Map<string, DaemonConnection>();
  private readonly fileFeeds = new Map<string, Feed<FileChangeBatch>>();
  private readonly gitFeeds = new Map<string, Feed<GitEvent>>();
  private readonly toolProgress = new CallListeners<Record<string, unknown>>();
  private readonly searchMatches = new CallListeners<SearchMatchesBatch>();
  private readonly portListeners = new Set<(workspaceId: string, ports: ListeningPort[]) => void>();

  constructor(private readonly deps: DaemonPoolDeps) {}

  /** The daemon of a workspace (connecting lazily), whatever the workspace's state. */
  connection(id: string): DaemonConnection {
    let d = this.connections.get(id);
    if (!d) {
      d = new DaemonConnection(
        this.deps.driver,
        id,
        {
          "fs.changed": ({ changes }) => this.fileFeed(id).publish({ changes }),
          "tools.progress": ({ callId, update }) => this.toolProgress.route(id, callId, update),
          "search.matches": ({ searchId, files }) => this.searchMatches.route(id, searchId, files),
          "git.changed": () => this.gitFeed(id).publish({ type: "changed" }),
          "git.progress": ({ callId, line }) =>
            this.gitFeed(id).publish({ type: "progress", progressId: callId, line }),
          "ports.changed": ({ ports }) => {
            for (const listener of this.portListeners) listener(id, ports);
          },
          // Which search a refused batch was for is not to be trusted: every search running there ends.
          refused: (method) => {
            if (method === "search.matches") this.searchMatches.routeToAll(id, { malformed: true });
          },
          ...(this.deps.answer ? { answer: this.deps.answer(id) } : {}),
        },
        this.deps.log,
        this.deps.options,
        () => this.reconnect(id),
      );
      this.connections.set(id, d);
    }
    return d;
  }

  /** The daemon of a workspace that must be running; a clear error otherwise. */
  async running(id: string): Promise<DaemonConnection> {
    const workspace = await this.deps.workspace(id);
    if (workspace.status !== "running") {
      const named = `workspace "${workspace.name}" is ${workspace.status}`;
      if (BEING_STARTED.has(workspace.status))
        throw new ServiceError("busy", `${named}; try again once it runs`);
      throw new ServiceError("precondition", `${named}; start it first`);
    }
    return this.connection(id);
  }

  /**
   * Runs `call` on the workspace's daemon straight away: asking the engine first whether the
   * container runs would cost each call more than the call. When the daemon cannot be reached, the
   * workspace's state explains why (stopped, missing). While a create or start waits for the daemon,
   * a call would wait with it (minutes on a busy machine): the state answers at once instead.
   */
  async call<T>(id: string, call: (daemon: DaemonConnection) => Promise<T>): Promise<T> {
    const daemon = this.connection(id);
    if (daemon.awaitingStart) await this.running(id);
    try {
      return await call(daemon);
    } catch (error) {
      if (error instanceof DaemonUnavailableError) await this.running(id);
      throw error;
    }
  }

  /**
   * A running workspace's connection that dropped on its own (its daemon stopped answering on a
   * busy machine, or broke the rules) is made again after `delayMs`, so its file and port watchers
   * go on telling the IDE without waiting for someone's next call; a failed attempt is retried
   * less and less often, and none is made once the workspace no longer runs or is forgotten.
   */
  private reconnect(id: string, delayMs = RECONNECT_FIRST_MS): void {
    setTimeout(async () => {
      const daemon = this.connections.get(id);
      if (!daemon || daemon.connected) return;
      try {
        if ((await this.deps.workspace(id)).status !== "running") return;
        if (this.connections.get(id) !== daemon) return;
        await daemon.ensure();
      } catch (error) {
        if (this.connections.get(id) !== daemon) return;
        const next = Math.min(delayMs * 2, RECONNECT_MAX_MS);
        this.deps.log(
          `daemon ${id}: connecting again failed (${(error as Error).message}); next try in ${next / 1000} s`,
        );
        this.reconnect(id, next);
      }
    }, delayMs).unref();
  }

  /** Whether this workspace's daemon was asked for since it was last forgotten. */
  has(id: string): boolean {
    return this.connections.has(id);
  }

  /** The container stopped or is starting again: the next call reconnects. */
  reset(id: string): void {
    this.connections.get(id)?.reset();
  }

  /** Closes the workspace's daemon and drops its connection (a spare removed, a workspace deleted). */
  disconnect(id: string): void {
    this.connections.get(id)?.close();
    this.connections.delete(id);
  }

  /** The workspace is gone: its daemon and its file changes with it. */
  forget(id: string): void {
    this.disconnect(id);
    this.fileFeeds.delete(id);
    this.gitFeeds.delete(id);
  }

  /**
   * Follows the `tools.progress` notifications of one call of one workspace until the returned
   * stop; another workspace's daemon cannot reach it, even knowing the call's id.
   */
  onToolProgress(
    workspaceId: string,
    callId: string,
    listener: (update: Record<string, unknown>) => void,
  ): () => void {
    return this.toolProgress.listen(workspaceId, callId, listener);
  }

  /** Follows the `search.matches` notifications of one search of one workspace until the returned stop. */
  onSearchMatches(
    workspaceId: string,
    searchId: string,
    listener: (batch: SearchMatchesBatch) => void,
  ): () => void {
    return this.searchMatches.listen(workspaceId, searchId, listener);
  }

  /** Follows every workspace's listening ports as its daemon reports them (`ports.changed`), until the returned stop. */
  onPortsChanged(listener: (workspaceId: string, ports: ListeningPort[]) => void): () => void {
    this.portListeners.add(listener);
    return () => this.portListeners.delete(listener);
  }

  /** The workspace's file changes as its daemon reports them (`fs.changed`). */
  fileFeed(id: string): Feed<FileChangeBatch> {
    let feed = this.fileFeeds.get(id);
    if (!feed) {
      feed = new Feed<FileChangeBatch>(500);
      this.fileFeeds.set(id, feed);
    }
    return feed;
  }

  /**
   * What the workspace's repository tells its panels: `changed` (HEAD, index or refs moved, from
   * `git.changed`) and the lines of running fetches, pulls and pushes (`git.progress`, whose call
   * id is the caller's progress id).
   */
  gitFeed(id: string): Feed<GitEvent> {
    let feed = this.gitFeeds.get(id);
    if (!feed) {
      feed = new Feed<GitEvent>(200);
      this.gitFeeds.set(id, feed);
    }
    return feed;
  }

  close(): void {
    for (const d of this.connections.values()) d.close();
  }
}
