import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AccessCloseCode, accessRefusal, workspaceId } from "@coder/protocol";
import { type WebSocket, WebSocketServer } from "ws";
import { clientOf } from "../audit/audit-entry";
import type { ConnectionRegistry } from "../auth/connection-registry";
import { type Principal, type Role, roleAllows, WRITE_ROLE } from "../auth/principal";
import type { WorkspaceRoles } from "../auth/workspace-roles";
import type { SocketAccess, SocketRoute, SocketTarget } from "../sockets/socket-route";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { socketConnection } from "./live-connections";

export interface SocketRouterDeps {
  principalOf(req: IncomingMessage): Promise<Principal | null>;
  workspaces: WorkspaceService;
  connections: ConnectionRegistry;
  roles: WorkspaceRoles;
}

/** The route and target a path names; "bad" when the prefix matches but the rest is malformed. */
export type SocketMatch = { route: SocketRoute; target: SocketTarget } | "bad" | null;

/**
 * Every WebSocket upgrade goes through here once Host, path and Origin passed the HTTP edge: the
 * path picks a route, one authenticate step finds principal, role and read-only, and a refusal
 * is an accepted socket closed at once with a code of `AccessCloseCode` (so the page can say why).
 * Accepted sockets are registered under their principal and workspace, so ending its access (or
 * its role on that workspace) closes them.
 */
export class SocketRouter {
  private readonly servers = new Map<SocketRoute, WebSocketServer>();

  constructor(
    routes: readonly SocketRoute[],
    private readonly deps: SocketRouterDeps,
  ) {
    for (const route of routes) {
      this.servers.set(route, new WebSocketServer({ noServer: true, maxPayload: route.maxPayload }));
    }
  }

  match(pathname: string): SocketMatch {
    const parts = pathname.split("/").filter(Boolean);
    const route = [...this.servers.keys()].find((r) => r.prefix === parts[0]);
    if (!route) return null;
    if (parts.length !== 3) return "bad";
    const ws = workspaceId.safeParse(parts[1]);
    const name = route.name.safeParse(parts[2]);
    if (!ws.success || !name.success) return "bad";
    return { route, target: { workspaceId: ws.data, name: name.data } };
  }

  /** The one authenticate step: the access a request has to `workspace` at `minimumRole`, or why not. */
  async authenticate(
    req: IncomingMessage,
    workspace: string,
    minimumRole: Role,
  ): Promise<SocketAccess | AccessCloseCode> {
    const principal = await this.deps.principalOf(req);
    if (!principal) return AccessCloseCode.LoggedOut;
    // The role first: a guest learns nothing about workspaces that are not theirs.
    const role = await this.deps.roles.of(principal, workspace);
    if (!role || !roleAllows(role, minimumRole)) return AccessCloseCode.Forbidden;
    const found = await this.deps.workspaces.get(workspace).catch(() => undefined);
    if (!found) return AccessCloseCode.NoWorkspace;
    if (found.status !== "running") return AccessCloseCode.NotRunning;
    return { principal, role, readOnly: !roleAllows(role, WRITE_ROLE), client: clientOf(req) };
  }

  async handle(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    { route, target }: Exclude<SocketMatch, "bad" | null>,
  ): Promise<void> {
    const access = await this.authenticate(req, target.workspaceId, route.minimumRole);
    const server = this.servers.get(route);
    server?.handleUpgrade(req, socket, head, (ws) => {
      if (typeof access === "number") {
        ws.close(access, accessRefusal(access)?.message ?? "");
        return;
      }
      ws.once("close", this.deps.connections.add(access.principal, socketConnection(ws), target.workspaceId));
      // An open socket keeps its workspace in use (the idle stopper's, workspaces/activity.ts).
      ws.once("close", this.deps.workspaces.activity.hold(target.workspaceId));
      route.serve(ws, target, access);
    });
  }

  /** Every open socket of every route. */
  clients(): WebSocket[] {
    return [...this.servers.values()].flatMap((s) => [...s.clients]);
  }
}
