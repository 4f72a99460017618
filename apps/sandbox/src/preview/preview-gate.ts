import type { PreviewVisibility } from "@coder/protocol";
import { LRUCache } from "lru-cache";
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
 * How long a decision answers the same question again: half the access cache's time, so a change
 * no write here announces (an expiry, another instance's lost notice) is still seen within
 * ACCESS_TTL_MS and a half. A page's requests ask the same question many times a second.
 */
const RECENT_MS = ACCESS_TTL_MS / 2;
/** Decisions kept at most (a flood of cookies evicts the oldest). */
const MAX_RECENT = 10_000;

interface RecentDecision {
  /** The access cache's epoch when it was asked: any access write since makes it void. */
  epoch: number;
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
  /** By cookie and port (`recentKey`). */
  private readonly recent = new LRUCache<string, RecentDecision>({ max: MAX_RECENT, ttl: RECENT_MS });

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
   * The decision `check` gave for the same cookie and target, while no access write happened since
   * and for at most RECENT_MS: answered at once, without a lookup.
   */
  known(cookie: string | undefined, target: PreviewTarget): PreviewDecision | undefined {
    if (!this.deps.access.enabled) return undefined;
    const recent = this.recent.get(recentKey(cookie, target));
    return recent?.epoch === this.deps.access.epoch ? recent.decision : undefined;
  }

  /** The decision for a request carrying the preview cookie `cookie` (or none). */
  async check(cookie: string | undefined, target: PreviewTarget): Promise<PreviewDecision> {
    const epoch = this.deps.access.epoch;
    const decision = await this.lookUp(cookie, target);
    // An access write while it was asked: the answer may predate it, so it is used once, not kept.
    if (this.deps.access.enabled && epoch === this.deps.access.epoch) {
      this.recent.set(recentKey(cookie, target), { epoch, decision });
    }
    return decision;
  }

  private async lookUp(cookie: string | undefined, target: PreviewTarget): Promise<PreviewDecision> {
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

const recentKey = (cookie: string | undefined, target: PreviewTarget) =>
  `${cookie ?? ""}\n${target.workspaceId}\n${target.port}`;
