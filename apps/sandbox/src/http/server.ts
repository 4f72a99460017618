import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type LspServerConfig, MAX_CALLS_PER_BATCH } from "@coder/protocol";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { AgentService } from "../agent/agent-service";
import { clientOf } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { AuthService } from "../auth/auth-service";
import { originAllowed, readCookie, SESSION_COOKIE } from "../auth/http-auth";
import type { OidcSignIn } from "../auth/oidc-sign-in";
import type { Principal } from "../auth/principal";
import type { UserAdmin } from "../auth/user-admin";
import type { CollabService } from "../collab/collab-service";
import { collabUser } from "../collab/collab-user";
import type { DaemonPool } from "../daemon/daemon-pool";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import type { CredentialCalls } from "../git-credentials/credential-calls";
import type { GitCredentials } from "../git-credentials/git-credentials";
import type { WorkspaceImporter } from "../imports/workspace-importer";
import type { PresenceBoard } from "../presence/presence-board";
import { isPreviewOrigin, previewHostOf } from "../preview/preview-host";
import type { PreviewProxy } from "../preview/preview-proxy";
import type { Previews } from "../preview/previews";
import type { TalkService } from "../talk/talk-service";
import { TerminalDirectory } from "../terminal/terminal-directory";
import { CallSlots } from "../trpc/call-slots";
import { type Context, INTERNAL_ERROR_MESSAGE } from "../trpc/init";
import { appRouter } from "../trpc/router";
import type { WorkspaceImports } from "../workspaces/workspace-imports";
import type { WorkspaceService } from "../workspaces/workspace-service";
import { answerBusy, BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, type BusyShedding } from "./busy-shedding";
import { FailureBackoff } from "./failure-backoff";
import { hostAllowed } from "./host-check";
import { plain } from "./http-answers";
import { httpRoutes, SERVICE_PATHS } from "./http-route-table";
import { HttpRouter } from "./http-routes";
import { responseConnection } from "./live-connections";
import { proxyToWeb } from "./proxy";
import { parseRequestTarget } from "./request-target";
import { SECURITY_HEADERS, securityHeaders, setSecurityHeaders } from "./security-headers";
import { pageSocketRoutes, socketRoutes } from "./socket-route-table";
import { SocketRouter } from "./socket-routes";

export interface ServerDeps {
  auth: AuthService;
  workspaces: WorkspaceService;
  workspaceImports: WorkspaceImports;
  daemons: DaemonPool;
  imports: WorkspaceImporter;
  agent: AgentService;
  collab: CollabService;
  /** Who has each workspace open (every instance's people when several share the database). */
  presence: PresenceBoard;
  /** The people's talk of each workspace. */
  talk: TalkService;
  /** The audit trail (audit/audit-log.ts). */
  audit: AuditLog;
  /** The workspaces' listening ports and their previews (preview/). */
  previews: Previews;
  /** Serves the preview origins (`<port>-<workspace>.<previewDomain>`), routed by Host before anything else. */
  previewProxy: PreviewProxy;
  previewDomain: string;
  /** The preview origins as a CSP source (the IDE's `frame-src`), once the service listens. */
  previewFrames: () => string;
  /** Each person's git tokens, and the one-shot ids that let a call's git ask for them. */
  git: { credentials: GitCredentials; calls: CredentialCalls };
  /** The administration of people and of every workspace (admins only). */
  people: UserAdmin;
  driver: WorkspaceDriver;
  webUpstream?: string;
  allowedOrigins: string[];
  /** Host names the service answers to (config.allowedHosts); any other Host header is refused. */
  allowedHosts: string[];
  secureCookies: boolean;
  /** Signing in with OpenID Connect, when configured; `publicUrl` (CODER_PUBLIC_URL) is its callback's origin. */
  oidc?: OidcSignIn;
  publicUrl?: string;
  lspServers: readonly LspServerConfig[];
  /** Refuses new requests and upgrades while the service's loop is far behind (busy-shedding.ts). */
  shedding: BusyShedding;
  log: (line: string) => void;
}

/**
 * Pages anyone may load: the login page, a share link's join page, an invitation's page, the
 * page saying a guest's access ended, and the static assets they need.
 */
function isPublicPage(pathname: string): boolean {
  return (
    pathname === "/login" ||
    pathname === "/ended" ||
    /^\/s\/[A-Za-z0-9_-]{1,200}$/.test(pathname) ||
    /^\/invite\/[A-Za-z0-9_-]{1,200}$/.test(pathname) ||
    pathname.startsWith("/_next/") ||
    pathname === "/favicon.ico" ||
    pathname === "/icon.svg"
  );
}

const MISDIRECTED = "this service does not answer to that host name";
const FROM_PREVIEW = "a preview's pages may not call the IDE";
const NOT_ORIGIN_FORM = "the request must name a path on this service";

/** Refuses an upgrade before it becomes a WebSocket, with a plain-text reason. */
function reject(
  socket: Duplex,
  status: number,
  text: string,
  reason = text,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(reason);
  const lines = Object.entries({ ...SECURITY_HEADERS, ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `${lines.join("")}Content-Length: ${body.length}\r\n\r\n${reason}`,
  );
}

/** The full error with its stack, for the service log only. */
function errorForLog(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * The service's one HTTP server: the plain routes of one table (http-route-table.ts: tRPC, login,
 * share links, uploads, archives), the WebSockets of another (socket-route-table.ts), and the web
 * UI behind a proxy. Every request and upgrade must name an allowed host and an origin-form path;
 * every WebSocket upgrade and every state-changing request also checks the Origin; each route
 * declares who may call it, and a page of the UI needs a session unless it is public.
 */
export function createServer(deps: ServerDeps): { server: http.Server; close(): Promise<void> } {
  const { auth, workspaces, agent, driver, log } = deps;
  const allowedHosts = new Set(deps.allowedHosts);
  const principal = (req: IncomingMessage) => auth.session(readCookie(req, SESSION_COOKIE));
  const { presence } = deps;
  const terminals = new TerminalDirectory(driver);

  const calls = new CallSlots();
  /** What every call sees, over HTTP or the page's socket alike. */
  const contextFor = (
    req: IncomingMessage,
    caller: Principal | null,
    subscribedTo: Context["subscribedTo"],
  ): Context => ({
    principal: caller,
    ended: null,
    presence,
    talk: deps.talk,
    workspaces,
    daemons: deps.daemons,
    workspaceImports: deps.workspaceImports,
    terminals,
    imports: deps.imports,
    agent,
    shares: auth.shares,
    people: deps.people,
    members: auth.members,
    roles: auth.roles,
    profiles: auth.profiles,
    subscribedTo,
    invites: auth.invites,
    // The Host was checked against the allowed hosts above, so it is safe to put into a link.
    origin: `${deps.secureCookies ? "https" : "http"}://${req.headers.host}`,
    lspServers: deps.lspServers,
    previews: deps.previews,
    log,
    calls,
    audit: deps.audit,
    client: clientOf(req),
    gitCredentials: deps.git.credentials,
    credentialCalls: deps.git.calls,
  });
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    // A larger batch is refused with 400 before any of its calls runs.
    maxBatchSize: MAX_CALLS_PER_BATCH,
    createContext: async ({ req, res, info }) => {
      const caller = await principal(req);
      // A subscription stays open: register it, so ending the session ends the stream, and tag it
      // with its workspace once known, so ending the caller's role there ends it too.
      let subscribedTo: Context["subscribedTo"] = null;
      if (caller && info.type === "subscription") {
        const connection = responseConnection(res);
        res.once("close", auth.connections.add(caller, connection));
        subscribedTo = (workspaceId) => {
          auth.connections.tag(caller, connection, workspaceId);
          // The response's close forgets it.
          return () => {};
        };
      }
      return {
        ...contextFor(req, caller, subscribedTo),
        ended: caller ? null : await auth.whyEnded(readCookie(req, SESSION_COOKIE)),
      };
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        log(`trpc ${path ?? "?"}: ${errorForLog(error.cause ?? error)}`);
    },
  });

  const routes = new HttpRouter(
    httpRoutes({
      auth,
      audit: deps.audit,
      secureCookies: deps.secureCookies,
      shareFailures: new FailureBackoff(),
      trpc,
      uploads: deps.imports.uploads,
      driver,
      oidc: deps.oidc,
      publicUrl: deps.publicUrl,
      peopleChanges: deps.people.changes,
      busy: () => deps.shedding.busy(),
      log,
    }),
    SERVICE_PATHS,
    { principalOf: principal, workspaces, roles: auth.roles },
  );

  let ownHeaders: Readonly<Record<string, string>> | undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // A preview origin is the app's, with the app's headers; a near miss is no one's.
    const preview = previewHostOf(req.headers.host, deps.previewDomain);
    if (preview && preview !== "misdirected") return deps.previewProxy.handle(req, res, preview);
    ownHeaders ??= securityHeaders([deps.previewFrames()]);
    setSecurityHeaders(res, ownHeaders);
    if (preview === "misdirected" || !hostAllowed(req.headers.host, allowedHosts)) {
      return plain(res, 421, MISDIRECTED);
    }
    if (isPreviewOrigin(req.headers.origin, deps.previewDomain)) return plain(res, 403, FROM_PREVIEW);
    const url = parseRequestTarget(req.url);
    if (!url) return plain(res, 400, NOT_ORIGIN_FORM);
    // Everything below (the tRPC handler included) reads this one normalised path.
    req.url = `${url.pathname}${url.search}`;
    const mutating = req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS";
    if (mutating && !originAllowed(req, deps.allowedOrigins)) {
      return plain(res, 403, "cross-origin request refused: a change needs the Origin of this service");
    }
    if (await routes.handle(req, res, url)) return;
    // Everything the table does not name is a page of the web UI.
    if (!isPublicPage(url.pathname) && !(await principal(req))) {
      // A guest whose link ended learns why, instead of meeting a login they cannot use.
      const ended = await auth.whyEnded(readCookie(req, SESSION_COOKIE));
      res.writeHead(302, { location: ended ? `/ended?code=${ended}` : "/login" }).end();
      return;
    }
    if (!deps.webUpstream) return plain(res, 503, "the web UI is not configured");
    proxyToWeb(deps.webUpstream, url, req, res);
  };

  const server = http.createServer((req, res) => {
    if (deps.shedding.refuses(req)) return answerBusy(req, res);
    handle(req, res).catch((err) => {
      log(`http ${req.method} ${req.url}: ${errorForLog(err)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(INTERNAL_ERROR_MESSAGE);
    });
  });

  const collab = deps.collab.route((workspaceId, who) => collabUser(presence, workspaceId, who));
  const sockets = new SocketRouter(
    socketRoutes(driver, terminals, log, deps.lspServers, collab, deps.audit),
    pageSocketRoutes({ contextFor, connections: auth.connections, log }),
    {
      principalOf: principal,
      whyEnded: (req) => auth.whyEnded(readCookie(req, SESSION_COOKIE)),
      workspaces,
      connections: auth.connections,
      roles: auth.roles,
    },
  );
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (deps.shedding.refuses(req)) {
      const retryAfter = { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) };
      return reject(socket, 503, "Service Unavailable", BUSY_MESSAGE, retryAfter);
    }
    const url = parseRequestTarget(req.url);
    const upgrade = async () => {
      const preview = previewHostOf(req.headers.host, deps.previewDomain);
      if (preview && preview !== "misdirected") return deps.previewProxy.upgrade(req, socket, head, preview);
      if (preview === "misdirected" || !hostAllowed(req.headers.host, allowedHosts))
        return reject(socket, 421, "Misdirected Request", MISDIRECTED);
      if (!url) return reject(socket, 400, "Bad Request", NOT_ORIGIN_FORM);
      if (!originAllowed(req, deps.allowedOrigins)) return reject(socket, 403, "Forbidden");
      const match = sockets.match(url.pathname);
      if (!match) return reject(socket, 404, "Not Found");
      if (match === "bad") return reject(socket, 400, "Bad Request");
      await sockets.handle(req, socket, head, match);
    };
    upgrade().catch((err) => {
      log(`upgrade ${url?.pathname}: ${errorForLog(err)}`);
      reject(socket, 500, "Internal Server Error");
    });
  });

  return {
    server,
    // Upgraded sockets are no longer the HTTP server's; end them too, or `server.close` never finishes.
    async close() {
      // Each socket's close handler starts ending its process: wait until every one has run.
      const open = sockets.clients();
      const closed = open.map((client) => new Promise((resolve) => client.once("close", resolve)));
      for (const client of open) client.terminate();
      server.closeAllConnections();
      await Promise.all([...closed, new Promise<void>((resolve) => server.close(() => resolve()))]);
    },
  };
}
