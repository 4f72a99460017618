import {
  type AccessCloseCode,
  accessRefusal,
  type LspServerConfig,
  sessionId,
  workspaceId,
} from "@coder/protocol";
import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import type { AgentService } from "../agent/agent-service";
import type { AuditClient } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { Invites } from "../auth/invites";
import type { NamedShares } from "../auth/named-shares";
import { type Principal, type Role, roleAllows, serviceRole } from "../auth/principal";
import type { Profiles } from "../auth/profiles";
import type { ShareLinks } from "../auth/share-links";
import type { UserAdmin } from "../auth/user-admin";
import type { WorkspaceRoles } from "../auth/workspace-roles";
import type { DaemonConnection } from "../daemon/daemon-connection";
import type { DaemonPool } from "../daemon/daemon-pool";
import { NamedError } from "../errors/named-error";
import type { CredentialCalls } from "../git-credentials/credential-calls";
import type { GitCredentials } from "../git-credentials/git-credentials";
import type { WorkspaceImporter } from "../imports/workspace-importer";
import type { PresenceBoard } from "../presence/presence-board";
import type { Previews } from "../preview/previews";
import type { TalkService } from "../talk/talk-service";
import type { TerminalDirectory } from "../terminal/terminal-directory";
import type { WorkspaceImports } from "../workspaces/workspace-imports";
import type { WorkspaceService } from "../workspaces/workspace-service";
import type { CallSlots } from "./call-slots";
import { mappedError } from "./trpc-error-codes";

export interface Context {
  /** Who is calling: null without a valid session cookie. */
  principal: Principal | null;
  /** Without a principal: why the cookie stopped working, when the page can say more than "log in". */
  ended: AccessCloseCode | null;
  presence: PresenceBoard;
  /** The people's talk of each workspace. */
  talk: TalkService;
  workspaces: WorkspaceService;
  /** Each running workspace's daemon, and the notifications it routes (file changes, search batches). */
  daemons: DaemonPool;
  /** Retried git imports and uploads unpacked into a running workspace. */
  workspaceImports: WorkspaceImports;
  /** The terminals (tmux sessions) open in each workspace. */
  terminals: TerminalDirectory;
  /** Checks and prepares the source a new workspace is filled from (a git URL, an upload). */
  imports: WorkspaceImporter;
  agent: AgentService;
  shares: ShareLinks;
  /** The administration of the service's people (admins only). */
  people: UserAdmin;
  /** Workspaces shared with people by name. */
  members: NamedShares;
  /** Each user's role on each workspace, from the database. */
  roles: WorkspaceRoles;
  /** What people change about their own accounts. */
  profiles: Profiles;
  /**
   * For a subscription: records the workspace it acts on with its registered connection, so
   * ending the caller's role there ends it; the returned function forgets it once the stream
   * ends (null for queries and mutations).
   */
  subscribedTo: ((workspaceId: string) => () => void) | null;
  /** Invitations and reset links (administrators make them). */
  invites: Invites;
  /** This service's origin as the caller addressed it (scheme and allowed Host), for share URLs. */
  origin: string;
  /** The workspaces' listening ports and who may open their previews. */
  previews: Previews;
  /** The language servers in use (defaults plus CODER_LSP_SERVERS). */
  lspServers: readonly LspServerConfig[];
  /** The service log, for what a container sent that broke the rules. */
  log: (line: string) => void;
  /** Each person's turns on each workspace, shared by every request to this service. */
  calls: CallSlots;
  /** The audit trail, and where the request came from (trpc/record-act.ts). */
  audit: AuditLog;
  client: AuditClient;
  /** Each person's git tokens per host (never answered with the token). */
  gitCredentials: GitCredentials;
  /** The one-shot ids that let the git of one call ask for the acting person's token. */
  credentialCalls: CredentialCalls;
}

/** What an answer says when the service itself failed; the error and its stack go to the log. */
export const INTERNAL_ERROR_MESSAGE = "something went wrong in the service; its log has the details";

/**
 * What a procedure requires, declared once where it is built: the role, and on what. `workspace`:
 * the input's `workspaceId`; `session`: the workspace of the input's agent `sessionId`; `service`:
 * no one workspace (the role then comes from `serviceRole`).
 */
export interface Access {
  /** `admin`: a user whose site role is admin, beyond any workspace role. */
  role: Role | "admin";
  on: "workspace" | "session" | "service";
}

export interface Meta {
  access: Access;
}

/** A refused call whose cookie ended for a reason the page shows (a revoked or expired link). */
class AccessEndedError extends NamedError {
  constructor(readonly code: AccessCloseCode) {
    super(accessRefusal(code)?.message ?? "log in first");
  }
}

/** The refusal of a call (or the end of a subscription) whose access ended with `code`; its answer carries the code. */
export function accessEndedError(code: AccessCloseCode): TRPCError {
  const cause = new AccessEndedError(code);
  return new TRPCError({ code: "UNAUTHORIZED", message: cause.message, cause });
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Never put `data.stack` (host paths) into an answer, whatever NODE_ENV says.
    isDev: false,
    sse: {
      ping: { enabled: true, intervalMs: 15_000 },
      client: { reconnectAfterInactivityMs: 40_000 },
    },
    errorFormatter({ shape, error }) {
      // The close code tells the page which notice to show instead of sending a guest to the login.
      if (error.cause instanceof AccessEndedError) {
        return { ...shape, data: { ...shape.data, accessCode: error.cause.code } };
      }
      // Validation failures become one readable sentence per field instead of a JSON dump.
      const cause = error.cause as { issues?: { path: PropertyKey[]; message: string }[] } | undefined;
      if (error.code === "BAD_REQUEST" && cause?.issues) {
        const message = cause.issues
          .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
          .join("; ");
        return { ...shape, message };
      }
      // An unexpected error's message may name host paths or internals.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        return { ...shape, message: INTERNAL_ERROR_MESSAGE };
      }
      return shape;
    },
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;

/** Turns errors from the layers below into tRPC errors whose message a person can act on. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const mapped = mappedError(result.error.cause);
  if (mapped) throw mapped;
  return result;
});

/**
 * A subscription's stream with the same mapping: what is thrown while it streams comes after every
 * middleware has returned.
 */
export async function* withMappedErrors<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (error) {
    throw mappedError(error) ?? error;
  }
}

/** Narrows `ctx.principal`: a call without a session stops here. */
const signedIn = t.middleware(({ ctx, next }) => {
  if (!ctx.principal) {
    if (ctx.ended === null) throw new TRPCError({ code: "UNAUTHORIZED", message: "log in first" });
    throw accessEndedError(ctx.ended);
  }
  return next({ ctx: { principal: ctx.principal } });
});

const base = t.procedure.use(signedIn).use(mapErrors);

/**
 * The one role check: the caller may act as `needed` on `workspace` (null: the service itself).
 * Returns their role there. A user's role comes from the database, through the access cache
 * (auth/access-cache.ts), which forgets it at every change: a revocation counts from the next call.
 */
export async function authorize(
  ctx: Pick<Context, "roles"> & { principal: Principal },
  needed: Role,
  workspace: string | null,
): Promise<Role> {
  const { principal } = ctx;
  const role = workspace === null ? serviceRole(principal) : await ctx.roles.of(principal, workspace);
  if (role === null) {
    throw new TRPCError({ code: "FORBIDDEN", message: "you have no access to that workspace" });
  }
  if (!roleAllows(role, needed)) {
    throw new TRPCError({ code: "FORBIDDEN", message: `this needs the ${needed} role; you are ${role}` });
  }
  return role;
}

/** Any signed-in principal, for what belongs to no one workspace (lists filter by principal). */
export const signedInProcedure = base
  .meta({ access: { role: "viewer", on: "service" } })
  .use(async ({ ctx, next }) => {
    await authorize(ctx, "viewer", null);
    return next();
  });

/** Only a user (never a guest), for what belongs to no one workspace (creating one). */
export const ownerProcedure = base
  .meta({ access: { role: "owner", on: "service" } })
  .use(async ({ ctx, next }) => {
    await authorize(ctx, "owner", null);
    const { principal } = ctx;
    if (principal.kind !== "user")
      throw new TRPCError({ code: "FORBIDDEN", message: "only a user may do that" });
    return next({ ctx: { principal } });
  });

/** Only a signed-in user whose site role is admin (the administration of people and all workspaces). */
export const adminProcedure = base.meta({ access: { role: "admin", on: "service" } }).use(({ ctx, next }) => {
  const { principal } = ctx;
  if (principal.kind !== "user" || principal.siteRole !== "admin") {
    throw new TRPCError({ code: "FORBIDDEN", message: "only an administrator may do that" });
  }
  return next({ ctx: { principal } });
});

/** Yields what `source` yields; `release` runs once it ends, however it ends. */
async function* releasedAtEnd<T>(source: AsyncIterable<T>, release: () => void): AsyncGenerator<T> {
  try {
    yield* source;
  } finally {
    release();
  }
}

/**
 * Every authorised call on a workspace is use of it (the idle stopper's, workspaces/activity.ts):
 * held while it runs, and a subscription for as long as its stream stays open. A subscription is
 * also tagged with its workspace here, once its role there was checked.
 */
const inUse = t.middleware(async ({ ctx, type, next }) => {
  const { workspaceId } = ctx as { workspaceId?: string };
  if (!workspaceId) return next();
  const untrack = type === "subscription" ? ctx.subscribedTo?.(workspaceId) : undefined;
  const held = ctx.workspaces.activity.hold(workspaceId);
  const release = () => {
    held();
    untrack?.();
  };
  let result: Awaited<ReturnType<typeof next>>;
  try {
    result = await next();
  } catch (err) {
    release();
    throw err;
  }
  const data = result.ok ? result.data : undefined;
  if (
    type === "subscription" &&
    result.ok &&
    data &&
    typeof data === "object" &&
    Symbol.asyncIterator in data
  ) {
    return { ...result, data: releasedAtEnd(data as AsyncIterable<unknown>, release) };
  }
  release();
  return result;
});

/**
 * A call on a workspace waits for its person's turn there (call-slots.ts), so one person's flood of
 * calls cannot starve another's. A subscription stays open for long and takes no turn.
 */
const takesTurn = t.middleware(async ({ ctx, type, signal, next }) => {
  const { workspaceId } = ctx as { workspaceId?: string };
  if (type === "subscription" || !workspaceId || !ctx.principal) return next();
  let release: () => void;
  try {
    release = await ctx.calls.take(workspaceId, ctx.principal.sessionId, signal);
  } catch (err) {
    if (!signal?.aborted) throw err;
    throw new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "the call was abandoned while it waited" });
  }
  try {
    return await next();
  } finally {
    release();
  }
});

/** Needs `role` on the input's `workspaceId`; the procedure's own input adds its other fields. */
export function workspaceProcedure(role: Role) {
  return base
    .meta({ access: { role, on: "workspace" } })
    .input(z.object({ workspaceId }))
    .use(async ({ ctx, input, next }) => {
      const held = await authorize(ctx, role, input.workspaceId);
      return next({ ctx: { workspaceId: input.workspaceId, role: held } });
    })
    .use(takesTurn)
    .use(inUse);
}

/** What a procedure sends to its workspace's daemon. */
export type WorkspaceDaemon = Pick<DaemonConnection, "request">;

/**
 * Like `workspaceProcedure`, for calls that go to the workspace's daemon: `ctx.daemon` sends
 * them straight there. Asking the engine first whether the container runs cost each call a Docker
 * inspect, more than a 200-file git status spends in the service; a call that cannot reach the
 * daemon is told why by the workspace's state (stopped, missing) instead (`DaemonPool.call`).
 */
export function runningWorkspaceProcedure(role: Role) {
  return workspaceProcedure(role).use(({ ctx, next }) => {
    const { daemons, workspaceId } = ctx;
    const daemon: WorkspaceDaemon = {
      request: (method, params, signal) =>
        daemons.call(workspaceId, (d) => d.request(method, params, signal)),
    };
    return next({ ctx: { daemon } });
  });
}

/** Needs `role` on the workspace that the input's agent `sessionId` belongs to. */
export function sessionProcedure(role: Role) {
  return base
    .meta({ access: { role, on: "session" } })
    .input(z.object({ sessionId }))
    .use(async ({ ctx, input, next }) => {
      const workspace = await ctx.agent.workspaceOf(input.sessionId);
      await authorize(ctx, role, workspace);
      return next({ ctx: { workspaceId: workspace } });
    })
    .use(inUse);
}
