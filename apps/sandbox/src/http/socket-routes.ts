import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AccessCloseCode, accessRefusal, workspaceId } from "@coder/protocol";
import { type WebSocket, WebSocketServer } from "ws";
import { clientOf } from "../audit/audit-entry";
import type { ConnectionRegistry } from "../auth/connection-registry";
import { type Principal, type Role, roleAllows, WRITE_ROLE } from "../auth/principal";
import type { WorkspaceRoles } from "../auth/workspace-roles";
import type { PageSocketRoute, SocketAccess, SocketRoute, SocketTarget } from "../sockets/socket-route";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { socketConnection } from "./live-connections";

export interface SocketRouterDeps {
  principalOf(req: IncomingMessage): Promise<Principal | null>;
  /** Without a principal: why the cookie stopped working, when the page can say more than "log in". */
  whyEnded(req: IncomingMessage): Promise<AccessCloseCode | null>;
  workspaces: WorkspaceService;
  connections: ConnectionRegistry;
  roles: WorkspaceRoles;
}

/**
 * The route and target a path names, or the page route it is; "bad" when the prefix matches but
 * the rest is malformed.
 */
export type SocketMatch =
  | { route: SocketRoute; target: SocketTarget }
  | { page: PageSocketRoute }
  | "bad"
  | null;

/**
 * Every WebSocket upgrade goes through here once Host, path and Origin passed the HTTP edge: the
 * path picks a route, one authenticate step finds principal, role and read-only, and a refusal
 * is an accepted socket closed at once with a code of `AccessCloseCode` (so the page can say why).
 * Accepted sockets are registered under their principal and workspace, so ending its access (or
 * its role on that workspace) closes them. A page's socket (its subscriptions) needs a principal
 * only, and is registered on no one workspace.
 */
export class SocketRouter {
  private readonly servers = new Map<SocketRoute | PageSocketRoute, WebSocketServer>();

  constructor(
    private readonly routes: readonly SocketRoute[],
    private readonly pages: readonly PageSocketRoute[],
    private readonly deps: SocketRouterDeps,
  ) {
    for (const route of [...routes, ...pages]) {
      this.servers.set(route, new WebSocketServer({ noServer: true, maxPayload: route.maxPayload }));
    }
  }

  match(pathname: string): SocketMatch {
    const page = this.pages.find((p) => p.path === pathname);
    if (page) return { page };
    const parts = pathname.split("/").filter(Boolean);
    const route = this.routes.find((r) => r.prefix === parts[0]);
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
    match: Exclude<SocketMatch, "bad" | null>,
  ): Promise<void> {
    if ("page" in match) return this.handlePage(req, socket, head, match.page);
    const { route, target } = match;
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

  /** A page's socket needs only a principal; it is registered under it, on no one workspace. */
  private async handlePage(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    page: PageSocketRoute,
  ): Promise<void> {
    const server = this.servers.get(page);
    const principal = await this.deps.principalOf(req);
    if (!principal) {
      // A guest whose link ended learns why, instead of meeting a login they cannot use.
      const code = (await this.deps.whyEnded(req)) ?? AccessCloseCode.LoggedOut;
      server?.handleUpgrade(req, socket, head, (ws) => ws.close(code, accessRefusal(code)?.message ?? ""));
      return;
    }
    server?.handleUpgrade(req, socket, head, (ws) => {
      ws.once("close", this.deps.connections.add(principal, socketConnection(ws)));
      page.serve(ws, req, principal);
    });
  }

  /** Every open socket of every route. */
  clients(): WebSocket[] {
    return [...this.servers.values()].flatMap((s) => [...s.clients]);
  }
}
