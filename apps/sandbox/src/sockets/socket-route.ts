import type { IncomingMessage } from "node:http";
import type { WebSocket } from "ws";
import type { z } from "zod";
import type { AuditClient } from "../audit/audit-entry";
import type { Principal, Role } from "../auth/principal";

/** Who a socket acts for, as the one authenticate step finds it (Hocuspocus's `onAuthenticate` shape). */
export interface SocketAccess {
  principal: Principal;
  role: Role;
  /** Below editor: the connection may watch but its input must not change anything. */
  readOnly: boolean;
  /** Where the socket was opened from, for the audit trail. */
  client: AuditClient;
}

/** The workspace and the name a socket's path holds: `/<prefix>/<workspaceId>/<name>`. */
export interface SocketTarget {
  workspaceId: string;
  name: string;
}

/**
 * One kind of WebSocket: its path, the role it needs on the workspace, and what serves it. A
 * handler never checks access itself; it gets a socket that passed `authenticate`.
 */
export interface SocketRoute {
  prefix: string;
  /** The last path segment (terminal name, language). */
  name: z.ZodType<string>;
  minimumRole: Role;
  /** Frames larger than this close the socket (ws answers 1009). */
  maxPayload: number;
  serve(ws: WebSocket, target: SocketTarget, access: SocketAccess): void;
}

/**
 * A WebSocket of the page rather than of one workspace (its tRPC subscriptions): one exact path,
 * any signed-in principal; what it serves checks each workspace's role itself.
 */
export interface PageSocketRoute {
  path: string;
  /** Frames larger than this close the socket (ws answers 1009). */
  maxPayload: number;
  serve(ws: WebSocket, req: IncomingMessage, principal: Principal): void;
}
