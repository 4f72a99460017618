import type { AccessCloseCode } from "@coder/protocol";
import type { Principal, PrincipalKind } from "./principal";

/** Something a principal keeps open (a WebSocket, an SSE response) that revocation must end. */
export interface LiveConnection {
  end(code: AccessCloseCode): void;
}

/** Enough of a principal to find its connections. */
type Holder = Pick<Principal, "kind" | "sessionId">;

const key = (p: Holder) => `${p.kind}:${p.sessionId}`;

/**
 * Every open socket and subscription, under the principal that opened it, so ending a session
 * (logout, rotation, expiry) finds and ends them all.
 */
export class ConnectionRegistry {
  private readonly byPrincipal = new Map<string, { principal: Principal; open: Set<LiveConnection> }>();

  /** Registers `connection`; call the returned function when it closes by itself. */
  add(principal: Principal, connection: LiveConnection): () => void {
    const k = key(principal);
    let entry = this.byPrincipal.get(k);
    if (!entry) {
      entry = { principal, open: new Set() };
      this.byPrincipal.set(k, entry);
    }
    const { open } = entry;
    open.add(connection);
    return () => {
      open.delete(connection);
      if (open.size === 0 && this.byPrincipal.get(k)?.open === open) this.byPrincipal.delete(k);
    };
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

  /** Ends every connection of `principal`; returns how many there were. */
  end(principal: Holder, code: AccessCloseCode): number {
    const entry = this.byPrincipal.get(key(principal));
    if (!entry) return 0;
    this.byPrincipal.delete(key(principal));
    const open = [...entry.open];
    for (const connection of open) connection.end(code);
    return open.length;
  }
}
