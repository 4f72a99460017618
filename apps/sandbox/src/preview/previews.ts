import type { ListeningPort, PreviewPort, PreviewVisibility, WorkspaceEvent } from "@coder/protocol";
import type { Principal, Role } from "../auth/principal";
import type { DaemonPool } from "../daemon/daemon-pool";
import { ServiceError } from "../errors/service-error";
import type { Feed } from "../events/feed";
import { PREVIEW_TOKEN_PARAM } from "./preview-cookie";
import type { PreviewOrigins } from "./preview-origins";
import type { PreviewSockets } from "./preview-sockets";
import type { PreviewTokens } from "./preview-tokens";
import { type PreviewVisibilityStore, visibilityAllows } from "./preview-visibility";

export interface PreviewsDeps {
  daemons: DaemonPool;
  origins: PreviewOrigins;
  tokens: PreviewTokens;
  visibility: PreviewVisibilityStore;
  sockets: PreviewSockets;
  /** The workspace events stream (`workspace.events`): ports events go there; status changes come from it. */
  events: Feed<WorkspaceEvent>;
  log: (line: string) => void;
}

/**
 * The workspaces' listening ports as the IDE shows them, the one-time links of `preview.open`, and
 * each port's visibility: a change is published as a `ports` workspace event and closes the
 * port's open preview sockets; a workspace that stops has all its ports private again.
 */
export class Previews {
  /** The last list each workspace's daemon reported. */
  private readonly ports = new Map<string, ListeningPort[]>();
  private readonly stopListening: () => void;
  private readonly stopFollowing = new AbortController();

  constructor(private readonly deps: PreviewsDeps) {
    this.stopListening = deps.daemons.onPortsChanged((workspaceId, ports) => {
      this.ports.set(workspaceId, ports);
      void this.publish(workspaceId);
    });
    void this.followStops();
  }

  /** The ports something listens on in the workspace, as the IDE shows them. */
  async list(workspaceId: string): Promise<PreviewPort[]> {
    const daemon = await this.deps.daemons.running(workspaceId);
    const { ports } = await daemon.request("ports.list", {});
    this.ports.set(workspaceId, ports);
    return this.shown(workspaceId, ports);
  }

  /**
   * A one-time URL into the port's origin for `principal` (whose role on the workspace is `role`):
   * its token works once, for 60 s, for this session on exactly this port.
   */
  async open(
    principal: Principal,
    role: Role,
    workspaceId: string,
    port: number,
    path = "/",
  ): Promise<string> {
    await this.deps.daemons.running(workspaceId);
    if (!visibilityAllows(await this.deps.visibility.of(workspaceId, port), role)) {
      throw new ServiceError("forbidden", `port ${port} is private: only the owner and editors may open it`);
    }
    const token = await this.deps.tokens.mint(
      { sessionId: principal.sessionId, kind: principal.kind },
      { workspaceId, port },
    );
    const url = new URL(path, this.deps.origins.root(workspaceId, port));
    url.searchParams.set(PREVIEW_TOKEN_PARAM, token);
    return url.href;
  }

  async setVisibility(workspaceId: string, port: number, visibility: PreviewVisibility): Promise<void> {
    await this.deps.visibility.set(workspaceId, port, visibility);
    // Whoever had it open comes back through the gate, under the new rule.
    this.deps.sockets.endPort({ workspaceId, port });
    await this.publish(workspaceId);
  }

  close(): void {
    this.stopListening();
    this.stopFollowing.abort();
  }

  private async shown(workspaceId: string, ports: ListeningPort[]): Promise<PreviewPort[]> {
    const visibility = await this.deps.visibility.all(workspaceId);
    return ports.map((p) => ({
      ...p,
      visibility: visibility.get(p.port) ?? "private",
      url: this.deps.origins.root(workspaceId, p.port),
    }));
  }

  private async publish(workspaceId: string): Promise<void> {
    try {
      const ports = await this.shown(workspaceId, this.ports.get(workspaceId) ?? []);
      this.deps.events.publish({ type: "ports", workspaceId, ports });
    } catch (error) {
      this.deps.log(`previews: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A workspace that is no longer running: its ports are private again and their sockets closed. */
  private async followStops(): Promise<void> {
    for await (const e of this.deps.events.subscribe(undefined, this.stopFollowing.signal)) {
      if (e.kind !== "event") continue;
      const event = e.item.data;
      const stopped =
        (event.type === "upsert" && event.workspace.status !== "running" && event.workspace.id) ||
        (event.type === "deleted" && event.workspaceId);
      if (!stopped) continue;
      this.ports.delete(stopped);
      this.deps.sockets.endWorkspace(stopped);
      try {
        if (event.type === "upsert" && (await this.deps.visibility.reset(stopped)))
          await this.publish(stopped);
      } catch (error) {
        this.deps.log(`previews: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
