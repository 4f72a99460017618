import type { AccessCloseCode } from "@coder/protocol";
import type { Principal, PrincipalKind } from "./principal";

/** Something a principal keeps open (a WebSocket, an SSE response) that revocation must end. */
export interface LiveConnection {
  end(code: AccessCloseCode): void;
}

/** Enough of a principal to find its connections. */
type Holder = Pick<Principal, "kind" | "sessionId">;

const key = (p: Holder) => `${p.kind}:${p.sessionId}`;

/** A principal's open connections, each with the workspace it acts on (null: none, or not known yet). */
interface Entry {
  principal: Principal;
  open: Map<LiveConnection, string | null>;
}

/**
 * Every open socket and subscription, under the principal that opened it and tagged with its
 * workspace, so ending a session (logout, rotation, expiry) finds and ends them all, and ending a
 * person's role on one workspace (a named share revoked) ends those on that workspace.
 */
export class ConnectionRegistry {
  private readonly byPrincipal = new Map<string, Entry>();

  /** Registers `connection` on `workspaceId`; call the returned function when it closes by itself. */
  add(principal: Principal, connection: LiveConnection, workspaceId: string | null = null): () => void {
    const k = key(principal);
    let entry = this.byPrincipal.get(k);
    if (!entry) {
      entry = { principal, open: new Map() };
      this.byPrincipal.set(k, entry);
    }
    const { open } = entry;
    open.set(connection, workspaceId);
    return () => {
      open.delete(connection);
      if (open.size === 0 && this.byPrincipal.get(k)?.open === open) this.byPrincipal.delete(k);
    };
  }

  /** Records the workspace a registered connection acts on, once known (a subscription's, after its input). */
  tag(principal: Holder, connection: LiveConnection, workspaceId: string): void {
    const open = this.byPrincipal.get(key(principal))?.open;
    if (open?.has(connection)) open.set(connection, workspaceId);
  }

  /** The sessions of `kind` that hold at least one connection. */
  sessionIds(kind: PrincipalKind): string[] {
    return [...this.byPrincipal.values()]
      .filter((e) => e.principal.kind === kind)
      .map((e) => e.principal.sessionId);
  }

  /** The principals that hold at least one connection, with how many each holds. */
  holders(): { principal: Principal; open: number }[] {
    return [...this.byPrincipal.values()].map((e) => ({ principal: e.principal, open: e.open.size }));
  }

  /** Each principal with the workspaces its connections act on (one row per principal and workspace). */
  held(): { principal: Principal; workspaceId: string; open: number }[] {
    return [...this.byPrincipal.values()].flatMap(({ principal, open }) => {
      const counts = new Map<string, number>();
      for (const workspaceId of open.values()) {
        if (workspaceId !== null) counts.set(workspaceId, (counts.get(workspaceId) ?? 0) + 1);
      }
      return [...counts].map(([workspaceId, n]) => ({ principal, workspaceId, open: n }));
    });
  }

  /** Ends every connection of `principal`; returns how many there were. */
  end(principal: Holder, code: AccessCloseCode): number {
    const entry = this.byPrincipal.get(key(principal));
    if (!entry) return 0;
    this.byPrincipal.delete(key(principal));
    const open = [...entry.open.keys()];
    for (const connection of open) connection.end(code);
    return open.length;
  }

  /**
   * Ends the connections on `workspaceId` of every principal `match` picks (their other
   * workspaces stay open); returns how many there were.
   */
  endOn(match: (principal: Principal) => boolean, workspaceId: string, code: AccessCloseCode): number {
    let ended = 0;
    for (const [k, { principal, open }] of [...this.byPrincipal]) {
      if (!match(principal)) continue;
      for (const [connection, on] of [...open]) {
        if (on !== workspaceId) continue;
        open.delete(connection);
        connection.end(code);
        ended++;
      }
      if (open.size === 0) this.byPrincipal.delete(k);
    }
    return ended;
  }
}
