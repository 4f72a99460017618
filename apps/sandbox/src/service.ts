import { rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { AgentService } from "./agent/agent-service";
import { PageBrowser } from "./agent/browser/page-browser";
import { loadAgentConfig } from "./agent/config/agent-config";
import { daemonWorkspace } from "./agent/workspace/workspace-port";
import { AuditLog } from "./audit/audit-log";
import { RetentionPurge } from "./audit/retention-purge";
import { AccessCache } from "./auth/access-cache";
import { AuthService } from "./auth/auth-service";
import { startOidcSignIn } from "./auth/oidc-start";
import { PeopleChanges } from "./auth/people-changes";
import { SessionSweeper } from "./auth/session-sweeper";
import { UserAdmin } from "./auth/user-admin";
import { joinCluster } from "./cluster/join-cluster";
import { CollabService } from "./collab/collab-service";
import { SharedDocuments } from "./collab/shared-documents";
import type { Config } from "./config";
import { createDriver } from "./create-driver";
import { type DaemonOptions, daemonCommand } from "./daemon/daemon-connection";
import { DaemonPool } from "./daemon/daemon-pool";
import { PortStreams } from "./daemon/port-streams";
import { DEFAULT_DAEMON_TIMEOUTS } from "./daemon/request-timeout";
import { type Db, openDatabase } from "./db/database";
import type { WorkspaceDriver } from "./driver/workspace-driver";
import { EventLoopLag } from "./event-loop/event-loop-lag";
import { CredentialCalls } from "./git-credentials/credential-calls";
import { GitCredentials } from "./git-credentials/git-credentials";
import { loadSecretKey } from "./git-credentials/secret-key";
import { BusyShedding } from "./http/busy-shedding";
import { createServer } from "./http/server";
import { UploadStore } from "./imports/upload-store";
import { WorkspaceImporter } from "./imports/workspace-importer";
import { PresenceBoard } from "./presence/presence-board";
import { PresenceShare } from "./presence/presence-share";
import { PreviewGate } from "./preview/preview-gate";
import { PreviewOrigins } from "./preview/preview-origins";
import { PreviewProxy } from "./preview/preview-proxy";
import { PreviewSessions } from "./preview/preview-sessions";
import { PreviewSockets } from "./preview/preview-sockets";
import { PreviewTokens } from "./preview/preview-tokens";
import { PreviewVisibilityStore } from "./preview/preview-visibility";
import { Previews } from "./preview/previews";
import { openNodeChannel } from "./swarm/node-channel/open-node-channel";
import { TalkService } from "./talk/talk-service";
import { IdleStopper } from "./workspaces/idle-stopper";
import { UserLimits } from "./workspaces/user-limits";
import { WorkspaceService } from "./workspaces/workspace-service";

export interface RunningService {
  url: string;
  /** Printed once: only set on the first start of a data folder. */
  adminToken: string | null;
  /** A single-use login link for this start. */
  loginUrl: string;
  auth: AuthService;
  workspaces: WorkspaceService;
  /** Each running workspace's daemon. */
  daemons: DaemonPool;
  agent: AgentService;
  /** This process among the instances on the database (it owns the turns it runs). */
  instanceId: string;
  collab: CollabService;
  /** The audit trail. */
  audit: AuditLog;
  /** Each person's git tokens, and the one-shot ids of the calls whose git may ask for one. */
  git: { credentials: GitCredentials; calls: CredentialCalls };
  /** The service's database (tests make accounts on it; its writes reach `access` like the service's own). */
  db: Db;
  /** What the access checks remember for a moment (benches turn it off to compare). */
  access: AccessCache;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** The daemon's command and timeouts, when not the defaults (tests run a misbehaving daemon). */
  daemon?: Partial<DaemonOptions>;
  /** Where workspaces run, when not the configuration's driver (tests give one reaching every node of a swarm). */
  driver?: WorkspaceDriver;
}

/** Wires the service together and listens. Used by main.ts and by integration tests. */
export async function startService(
  config: Config,
  log: (line: string) => void = console.error,
  options: ServiceOptions = {},
): Promise<RunningService> {
  const agentConfig = loadAgentConfig(config.agent, config.dataDir);
  // Every write goes through the access cache's plugin: one to an access table forgets its answers.
  const access = new AccessCache();
  const db = (await openDatabase(config, log)).withPlugin(access.writes);
  const cluster = await joinCluster(config, db, log);
  const stopAccess = access.listen(cluster.bus);
  const auth = new AuthService(db, undefined, access);
  const audit = new AuditLog(db, log);
  const retention = new RetentionPurge(audit, config.auditRetentionDays, log);
  const adminToken = await auth.ensureAdminToken();
  await auth.purgeExpired();
  const driver = options.driver ?? createDriver(config, cluster.instance);
  let nodeChannel: Awaited<ReturnType<typeof openNodeChannel>>;
  try {
    await driver.ready();
    nodeChannel = await openNodeChannel(config, driver, cluster.instance, log);
  } catch (err) {
    await cluster.leave();
    await db.destroy();
    throw err;
  }
  // Before any workspace starts: egress ones only ever run behind their rules.
  await driver.prepare().catch((err: Error) => log(err.message));
  // Beside the start, not before it: a job container the first page need not wait for.
  const reclaiming = driver.reclaimLeftovers?.().catch((err: Error) => log(err.message));
  const uploads = new UploadStore(path.join(config.dataDir, "uploads"), config.imports.maxBytes);
  await uploads.init();
  const imports = new WorkspaceImporter(driver, uploads, { ...config.imports, allow: config.egressAllow });
  const gitCredentials = new GitCredentials(db, await loadSecretKey(config.secretKey, config.dataDir));
  const credentialCalls = new CredentialCalls(gitCredentials, config.egressAllow, log);
  // The service's own lag: new work waits while it is far behind, and it is not the daemons' silence.
  const lag = new EventLoopLag();
  const daemons: DaemonPool = new DaemonPool({
    driver,
    log,
    options: {
      command: daemonCommand(config.lspServers),
      timeouts: DEFAULT_DAEMON_TIMEOUTS,
      lag,
      ...options.daemon,
    },
    // Asked only once a caller needs a running workspace, long after `workspaces` exists.
    workspace: (id) => workspaces.get(id),
    answer: (id) => ({ "credential.get": credentialCalls.answererFor(id) }),
  });
  const limits = new UserLimits(db, config.defaultLimits, {
    memoryMb: config.limits.memoryBytes / (1024 * 1024),
    cpus: config.limits.nanoCpus / 1e9,
    diskMb: config.disk.workspaceMb,
  });
  const workspaces = new WorkspaceService(
    db,
    driver,
    config.image,
    log,
    daemons,
    imports,
    cluster.bus,
    { size: config.warmPool, recheckMs: config.swarm.recheckMs },
    cluster.instance,
    limits,
  );
  await workspaces.init();
  const collab = new CollabService({
    workspaces,
    daemons,
    log,
    batching: config.collabBatching,
    shared: config.redisUrl ? new SharedDocuments(config.redisUrl, cluster.instance.id, log) : undefined,
  });
  const talk = new TalkService(db, cluster.bus, log);
  const presence = new PresenceBoard(
    cluster.instance.shared ? new PresenceShare(db, cluster.bus, cluster.instance) : undefined,
    log,
    talk,
  );
  const agent = new AgentService({
    db,
    bus: cluster.bus,
    instance: cluster.instance,
    config: agentConfig,
    workspace: (id) => daemonWorkspace(daemons, id, collab),
    workspaceInfo: (id) => workspaces.get(id),
    log,
    presence,
    audit: (entry) => audit.record(entry),
    browser: new PageBrowser(driver, config.browserImage, log),
  });
  // Earlier versions kept the service tools' cut outputs here on the host (and never removed
  // them); they now go to the workspace's spill folder, so what is left here is only litter.
  await rm(path.join(config.dataDir, "tool-output"), { recursive: true, force: true });
  await agent.init();
  workspaces.activity.addSource({ isActive: (id) => agent.turnRunningIn(id) });
  // A document someone has open keeps its workspace in use (also the seconds after they leave).
  workspaces.activity.addSource({ isActive: (id) => collab.liveDocuments(id).length > 0 });
  const idleStopper = new IdleStopper(db, workspaces, config.idleStopSeconds * 1000, log);
  idleStopper.start();
  const oidc = config.oidc && startOidcSignIn(config.oidc, db, log);
  const previewOrigins = new PreviewOrigins(config.previewDomain, config.publicUrl);
  const previewTokens = new PreviewTokens(db);
  const previewSessions = new PreviewSessions(db);
  const previewVisibility = new PreviewVisibilityStore(db);
  const previewSockets = new PreviewSockets();
  const previews = new Previews({
    daemons,
    origins: previewOrigins,
    tokens: previewTokens,
    visibility: previewVisibility,
    sockets: previewSockets,
    events: workspaces.events,
    bus: cluster.bus,
    log,
  });
  const previewProxy = new PreviewProxy({
    gate: new PreviewGate({
      auth,
      roles: auth.roles,
      sessions: previewSessions,
      visibility: previewVisibility,
      access,
    }),
    tokens: previewTokens,
    sessions: previewSessions,
    streams: new PortStreams(driver, log),
    origins: previewOrigins,
    connections: auth.connections,
    sockets: previewSockets,
    log,
  });
  const { server, close: closeServer } = createServer({
    auth,
    workspaces,
    workspaceImports: workspaces.imports,
    daemons,
    imports,
    agent,
    collab,
    presence,
    talk,
    audit,
    previews,
    previewProxy,
    previewDomain: config.previewDomain,
    previewFrames: () => previewOrigins.framePattern(),
    git: { credentials: gitCredentials, calls: credentialCalls },
    people: new UserAdmin({
      db,
      limits,
      listWorkspaces: () => workspaces.list(),
      endSessions: (id) => auth.endUserSessions(id),
      revokeShares: (id) => auth.shares.revokeWorkspace(id),
      stopWorkspace: (id) => workspaces.stop(id),
      publishWorkspaceChange: (id) => workspaces.publishChange(id),
      changes: new PeopleChanges(cluster.bus, log),
      log,
    }),
    driver,
    webUpstream: config.webUpstream,
    allowedOrigins: config.allowedOrigins,
    allowedHosts: config.allowedHosts,
    secureCookies: config.secureCookies,
    oidc,
    publicUrl: config.publicUrl,
    lspServers: config.lspServers,
    shedding: new BusyShedding(lag, config.busyLagMs, log),
    log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const sweeper = new SessionSweeper(auth, log);
  sweeper.start();
  retention.start();
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `http://${host}:${port}`;
  previewOrigins.listening(url);
  const ticket = await auth.createLoginTicket();
  return {
    url,
    adminToken,
    loginUrl: `${url}/auth/ticket?t=${ticket}`,
    auth,
    workspaces,
    daemons,
    agent,
    instanceId: cluster.instance.id,
    collab,
    audit,
    git: { credentials: gitCredentials, calls: credentialCalls },
    db,
    access,
    async close() {
      await sweeper.stop();
      await retention.stop();
      await oidc?.stop();
      await idleStopper.stop();
      await agent.close();
      // Typing not yet on disk goes there while the daemons still answer.
      await collab.close().catch((err: Error) => log(`collab: ${err.message}`));
      await workspaces.close();
      uploads.close();
      previews.close();
      previewProxy.close();
      await closeServer();
      await nodeChannel?.close();
      await presence.close();
      talk.close();
      // The sockets just closed are ending their processes in the workspaces: let them finish.
      await driver.settle();
      await reclaiming;
      await audit.settled();
      stopAccess();
      await cluster.leave();
      await db.destroy();
      lag.stop();
    },
  };
}
