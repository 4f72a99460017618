import type { PreviewPort, PreviewVisibility } from "@coder/protocol";
import type { Principal, Role } from "../auth/principal";
import type { DaemonPool } from "../daemon/daemon-pool";
import { ServiceError } from "../errors/service-error";
import type { PreviewOrigins } from "./preview-origins";

export interface PreviewsDeps {
  daemons: DaemonPool;
  origins: PreviewOrigins;
}

/** The workspaces' listening ports, who may open their previews, and the one-time links that let them in. */
export class Previews {
  constructor(private readonly deps: PreviewsDeps) {}

  /** The ports something listens on in the workspace, as the IDE shows them. */
  async list(workspaceId: string): Promise<PreviewPort[]> {
    await this.deps.daemons.running(workspaceId);
    const { ports } = await this.deps.daemons.call(workspaceId, (d) => d.request("ports.list", {}));
    return ports.map((p) => ({
      ...p,
      visibility: "private" as const,
      url: this.deps.origins.root(workspaceId, p.port),
    }));
  }

  /** A one-time URL into the port's origin for `principal`, whose role there is `role`. */
  async open(
    _principal: Principal,
    _role: Role,
    _workspaceId: string,
    _port: number,
    _path: string | undefined,
  ): Promise<string> {
    throw new ServiceError("unavailable", "opening a preview is not available yet");
  }

  async setVisibility(_workspaceId: string, _port: number, _visibility: PreviewVisibility): Promise<void> {
    throw new ServiceError("unavailable", "changing a preview's visibility is not available yet");
  }
}
