import type { LspServerConfig } from "@coder/protocol";
import { initTRPC, TRPCError } from "@trpc/server";
import type { AgentService } from "../agent/agent-service";
import { AgentError } from "../agent/errors";
import { DaemonCallError, DaemonUnavailableError } from "../daemon/daemon-connection";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { WorkspaceError } from "../workspaces/workspace-service";

export interface Context {
  /** Whether the caller carries a valid session cookie. */
  authenticated: boolean;
  workspaces: WorkspaceService;
  agent: AgentService;
  /** The language servers in use (defaults plus CODER_LSP_SERVERS). */
  lspServers: readonly LspServerConfig[];
}

/** What an answer says when the service itself failed; the error and its stack go to the log. */
export const INTERNAL_ERROR_MESSAGE = "something went wrong in the service; its log has the details";

const t = initTRPC.context<Context>().create({
  // Never put `data.stack` (host paths) into an answer, whatever NODE_ENV says.
  isDev: false,
  sse: {
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 40_000 },
  },
  errorFormatter({ shape, error }) {
    // Validation failures become one readable sentence per field instead of a JSON dump.
    const cause = error.cause as { issues?: { path: PropertyKey[]; message: string }[] } | undefined;
    if (error.code === "BAD_REQUEST" && cause?.issues) {
      const message = cause.issues
        .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
        .join("; ");
      return { ...shape, message };
    }
    // An unexpected error's message may name host paths or internals; a daemon's is about the workspace.
    if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof DaemonCallError)) {
      return { ...shape, message: INTERNAL_ERROR_MESSAGE };
    }
    return shape;
  },
});

export const router = t.router;

/** Turns errors from the layers below into tRPC errors whose message a person can act on. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof WorkspaceError) {
    const code = cause.kind === "not_found" ? "NOT_FOUND" : "PRECONDITION_FAILED";
    throw new TRPCError({ code, message: cause.message, cause });
  }
  if (cause instanceof DaemonCallError) {
    const code = {
      forbidden: "FORBIDDEN",
      not_found: "NOT_FOUND",
      conflict: "CONFLICT",
      bad_request: "BAD_REQUEST",
      internal: "INTERNAL_SERVER_ERROR",
    } as const;
    throw new TRPCError({ code: code[cause.kind], message: cause.message, cause });
  }
  if (cause instanceof AgentError) {
    const code = {
      not_found: "NOT_FOUND",
      busy: "CONFLICT",
      precondition: "PRECONDITION_FAILED",
      bad_request: "BAD_REQUEST",
    } as const;
    throw new TRPCError({ code: code[cause.kind], message: cause.message, cause });
  }
  if (cause instanceof DaemonUnavailableError) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: cause.message, cause });
  }
  return result;
});

/** Every procedure requires the owner's session. */
export const authedProcedure = t.procedure
  .use(({ ctx, next }) => {
    if (!ctx.authenticated) throw new TRPCError({ code: "UNAUTHORIZED", message: "log in first" });
    return next();
  })
  .use(mapErrors);
