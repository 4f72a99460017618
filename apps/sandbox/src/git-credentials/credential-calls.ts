import { randomBytes } from "node:crypto";
import type { Principal } from "../auth/principal";
import { BoundedLineLog, type LineLogLimits } from "../container-streams/bounded-line-log";
import { allowListOpens, type EgressAllowEntry } from "../net/egress-allow-list";
import { type GitCredentialRequest, hostOfGitRequest } from "./credential-host";
import type { GitCredentials, GitLogin } from "./git-credentials";

/** What a workspace's daemon asks when git run for one of the service's calls wants a login. */
export interface CredentialAsk extends GitCredentialRequest {
  /** The id the service gave that one call (`open`); null for git run in a terminal or by the agent. */
  requestId: string | null;
}

/** One call (a panel's fetch, pull or push) whose git may ask for the acting person's login. */
export interface CredentialCall {
  requestId: string;
  /** Ends the call: its id answers nothing any more. */
  close(): void;
}

/** git asks once per fetch, pull or push; more than this a minute from one workspace is refused unread. */
export const ASKS_PER_MINUTE = 60;
/** What a workspace's refused asks may write to the service log. */
const REFUSAL_LOG_LIMITS: LineLogLimits = { maxLineBytes: 512, burst: 10, perSecond: 0.5, total: 10_000 };

interface OpenCall {
  workspaceId: string;
  userId: string;
}

/**
 * Decides what git inside a workspace gets when it asks for a login (the daemon's `credential.get`):
 * only the acting person's token, only during the one call the service opened for them and only
 * from that workspace's daemon, only for exactly the host the token was stored for (parsed, never
 * matched as text), and only over https, or plain http to an address and port the operator opened
 * in CODER_EGRESS_ALLOW (a git server on their own network, as imports allow). Git run in a
 * terminal or by the agent gets the owner's token only for a host the owner bound to the workspace.
 */
export class CredentialCalls {
  private readonly calls = new Map<string, OpenCall>();

  constructor(
    private readonly credentials: GitCredentials,
    private readonly allow: readonly EgressAllowEntry[],
    private readonly log: (line: string) => void,
  ) {}

  /** A one-shot id for one call of `userId` on the workspace; close it when the call ends. */
  open(workspaceId: string, userId: string): CredentialCall {
    const requestId = randomBytes(24).toString("base64url");
    this.calls.set(requestId, { workspaceId, userId });
    return { requestId, close: () => this.calls.delete(requestId) };
  }

  /**
   * Runs one call whose git may ask for the acting person's login (a fetch, pull or push): `run`
   * gets the call's one-shot id to pass to the daemon (none for a guest, who keeps no tokens), and
   * the id answers nothing once the call has ended.
   */
  async during<T>(
    workspaceId: string,
    person: Principal,
    run: (requestId: string | undefined) => Promise<T>,
  ): Promise<T> {
    if (person.kind !== "user") return run(undefined);
    const call = this.open(workspaceId, person.userId);
    try {
      return await run(call.requestId);
    } finally {
      call.close();
    }
  }

  /**
   * How the service answers one workspace's daemon (made with its connection): at most
   * ASKS_PER_MINUTE asks a minute, its refusals logged within bounds, so a workspace that asks in
   * a loop (any of its processes can, through a bound host's helper) costs neither the database
   * nor the log.
   */
  answererFor(workspaceId: string): (ask: CredentialAsk) => Promise<GitLogin | null> {
    const refusals = new BoundedLineLog(this.log, REFUSAL_LOG_LIMITS);
    const logRefusal = (line: string) => refusals.write(Buffer.from(`${line}\n`));
    let windowStart = 0;
    let asked = 0;
    return async (ask) => {
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        windowStart = now;
        asked = 0;
      }
      asked += 1;
      if (asked > ASKS_PER_MINUTE) {
        if (asked === ASKS_PER_MINUTE + 1) {
          logRefusal(`[git credentials] workspace ${workspaceId}: asks too often; no logins this minute`);
        }
        return null;
      }
      return this.answer(workspaceId, ask, logRefusal);
    };
  }

  /** The login for the daemon of `workspaceId` asking `ask`, or null. */
  async answer(
    workspaceId: string,
    ask: CredentialAsk,
    log: (line: string) => void = this.log,
  ): Promise<GitLogin | null> {
    const target = hostOfGitRequest(ask);
    const refuse = (why: string) => {
      log(
        `[git credentials] workspace ${workspaceId}: no login for ${target?.host ?? "an unusable host"}: ${why}`,
      );
      return null;
    };
    if (!target) return refuse("git named no http(s) host");
    if (target.protocol === "http" && !this.plainHttpOpened(target.host)) {
      return refuse("plain http is only for an address opened in CODER_EGRESS_ALLOW");
    }
    if (ask.requestId === null) {
      const login = await this.credentials.boundLoginFor(workspaceId, target.host);
      return login ?? refuse("the owner bound no token for it to this workspace");
    }
    const call = this.calls.get(ask.requestId);
    if (!call || call.workspaceId !== workspaceId) return refuse("not asked during a call of this workspace");
    const login = await this.credentials.loginFor(call.userId, target.host);
    return login ?? refuse("the person keeps no token for it");
  }

  private plainHttpOpened(host: string): boolean {
    const url = new URL(`http://${host}`);
    return allowListOpens(this.allow, url.hostname, url.port ? Number(url.port) : 80);
  }
}
