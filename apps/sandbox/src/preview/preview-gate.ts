import type { PreviewVisibility } from "@coder/protocol";
import { ACCESS_TTL_MS, type AccessCache } from "../auth/access-cache";
import type { AuthService } from "../auth/auth-service";
import type { Principal } from "../auth/principal";
import { hashSecret } from "../auth/secrets";
import type { WorkspaceRoles } from "../auth/workspace-roles";
import type { PreviewTarget } from "./preview-host";
import type { PreviewSessions } from "./preview-sessions";
import type { PreviewHolder } from "./preview-tokens";
import { type PreviewVisibilityStore, visibilityAllows } from "./preview-visibility";

/**
 * What the gate says about one request to a preview origin: let it through (for `principal`, null
 * for anyone on a public port), send the browser to the IDE's sign-in, or refuse.
 */
export type PreviewDecision =
  | { kind: "allow"; principal: Principal | null; visibility: PreviewVisibility }
  | { kind: "sign-in" }
  | { kind: "forbidden" };

export interface PreviewGateDeps {
  auth: Pick<AuthService, "sessionById">;
  roles: Pick<WorkspaceRoles, "of">;
  sessions: PreviewSessions;
  visibility: PreviewVisibilityStore;
  /** Remembers the cookie's holder and the port's visibility for a moment (the session and role: `auth`, `roles`). */
  access: AccessCache;
}

/**
 * How long a connection's last decision answers its next requests: half the access cache's time,
 * so a change no write here announces (an expiry, another instance's lost notice) is still seen
 * within ACCESS_TTL_MS and a half.
 */
const CONNECTION_MEMORY_MS = ACCESS_TTL_MS / 2;

/** The last decision on one browser connection, and what it was about. */
interface ConnectionDecision {
  cookie: string | undefined;
  workspaceId: string;
  port: number;
  /** The access cache's epoch when it was asked: any access write since makes it void. */
  epoch: number;
  until: number;
  decision: PreviewDecision;
}

/**
 * Who may open a port's preview, checked on every request and upgrade: the preview cookie's IDE
 * session must still hold, and its role on the workspace must reach the port's visibility
 * (private: owner and editors; workspace: any role; public: anyone). The answers come from the
 * access cache, which forgets them at every write that changes them, so a logout, a revoked
 * share, a suspension or a visibility change still refuses the next request.
 */
export class PreviewGate {
  /** Keyed by the browser's connection: a keep-alive connection asks the same question for each request. */
  private readonly byConnection = new WeakMap<object, ConnectionDecision>();

  constructor(private readonly deps: PreviewGateDeps) {}

  /** The principal of an IDE session while it holds (the same kind as when the cookie was made). */
  async principal(holder: PreviewHolder): Promise<Principal | null> {
    const principal = await this.deps.auth.sessionById(holder.sessionId);
    return principal?.kind === holder.kind ? principal : null;
  }

  /** The decision for `principal` (null: nobody signed in) on `target`. */
  async decide(principal: Principal | null, target: PreviewTarget): Promise<PreviewDecision> {
    const { workspaceId, port } = target;
    const visibility = await this.deps.access.remember(`visibility\n${workspaceId}\n${port}`, () =>
      this.deps.visibility.of(workspaceId, port),
    );
    const role = principal ? await this.deps.roles.of(principal, target.workspaceId) : null;
    if (visibilityAllows(visibility, role)) return { kind: "allow", principal, visibility };
    return principal ? { kind: "forbidden" } : { kind: "sign-in" };
  }

  /**
   * The decision `check` gave on this `connection` for the same cookie and target, while no access
   * write happened since and for at most CONNECTION_MEMORY_MS: answered at once, without a lookup.
   */
  known(connection: object, cookie: string | undefined, target: PreviewTarget): PreviewDecision | undefined {
    const last = this.byConnection.get(connection);
    if (!last || !this.deps.access.enabled) return undefined;
    const same =
      last.cookie === cookie &&
      last.workspaceId === target.workspaceId &&
      last.port === target.port &&
      last.epoch === this.deps.access.epoch &&
      performance.now() < last.until;
    return same ? last.decision : undefined;
  }

  /** `check`, remembered for `connection` (see `known`). */
  async checkFor(
    connection: object,
    cookie: string | undefined,
    target: PreviewTarget,
  ): Promise<PreviewDecision> {
    const epoch = this.deps.access.epoch;
    const until = performance.now() + CONNECTION_MEMORY_MS;
    const decision = await this.check(cookie, target);
    // An access write while it was asked: the answer may predate it, so it is used once, not kept.
    if (epoch === this.deps.access.epoch) {
      this.byConnection.set(connection, { cookie, ...target, epoch, until, decision });
    }
    return decision;
  }

  /** The decision for a request carrying the preview cookie `cookie` (or none). */
  async check(cookie: string | undefined, target: PreviewTarget): Promise<PreviewDecision> {
    const holder = cookie
      ? await this.deps.access.remember(
          `preview\n${hashSecret(cookie)}\n${target.workspaceId}\n${target.port}`,
          () => this.deps.sessions.holder(cookie, target),
        )
      : null;
    const principal = holder ? await this.principal(holder) : null;
    return this.decide(principal, target);
  }
}
