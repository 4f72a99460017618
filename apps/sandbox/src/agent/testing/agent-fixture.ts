import type { PrimaryAgent, Session, StoredSessionEvent, ToolPart, Turn } from "@coder/protocol";
import {
  type ModelServer,
  type ScriptedTurn,
  startModelServer,
} from "../../../../../e2e/support/model-server";
import { type ClusterMembership, joinCluster } from "../../cluster/join-cluster";
import type { HeartbeatTiming } from "../../cluster/service-instance";
import type { Db } from "../../db/database";
import type { SqlDialect } from "../../db/sql-dialect";
import { openTestDatabase } from "../../db/testing/test-database";
import { AgentService, type AgentServiceOptions } from "../agent-service";
import type { AgentConfig } from "../config/agent-config";
import { collectEvents, type EventLogView } from "./event-view";
import { type LocalWorkspace, startLocalWorkspace } from "./local-workspace";

export { type EventLogView, isType } from "./event-view";

/** Heartbeats quick enough that a test sees an abandoned instance go stale within a second. */
export const TEST_HEARTBEAT: HeartbeatTiming = { beatMs: 100, staleMs: 600 };

export interface AgentFixture {
  agent: AgentService;
  db: Db;
  /** This service instance on the database and its live bus. */
  cluster: ClusterMembership;
  /**
   * The agent service of another instance on the same database, with the same configuration (a
   * second replica, or the service started again after this one died); closed with the fixture.
   */
  startAnother(): Promise<AgentService>;
  model: ModelServer;
  workspace: LocalWorkspace;
  workspaceId: string;
  newSession(agent?: PrimaryAgent): Promise<Session>;
  /** Follows a session's events from its first one. */
  watch(sessionId: string): EventLogView;
  /** The tool calls of a session, in order, as stored. */
  toolParts(sessionId: string): Promise<ToolPart[]>;
  /** Prompts and waits for the turn (and any auto-verify after it) to end. */
  run(sessionId: string, text: string): Promise<Turn>;
  close(): Promise<void>;
}

export const MODEL = "openai-compatible/scripted";

/**
 * An agent service on a temporary database, the scripted model server and a real in-process
 * daemon on a temporary folder: the runtime end to end, without Docker.
 */
export async function startAgentFixture(
  options: {
    script?: ScriptedTurn[];
    config?: Partial<AgentConfig>;
    service?: Partial<AgentServiceOptions>;
    /** The database it runs on (default SQLite). */
    dialect?: SqlDialect;
  } = {},
): Promise<AgentFixture> {
  const database = await openTestDatabase(options.dialect ?? "sqlite");
  const db = database.db;
  const cluster = await joinCluster(database.settings, db, () => {}, TEST_HEARTBEAT);
  const others: { cluster: ClusterMembership; agent: AgentService }[] = [];
  const model = await startModelServer({ script: options.script ?? [] });
  const workspace = await startLocalWorkspace();
  const workspaceId = "wsagenttest0001";
  await db
    .insertInto("workspaces")
    .values({
      id: workspaceId,
      name: "test",
      egress: 0,
      image: "none",
      created_at: new Date().toISOString(),
      desired_state: "running",
    })
    .execute();
  const config: AgentConfig = {
    providers: { "openai-compatible": { baseURL: model.baseURL } },
    models: [MODEL],
    permissions: {},
    experimental: { batch_tool: false, websearch: false },
    webfetch: true,
    websearch: { endpoint: "http://127.0.0.1:9/search" },
    ...options.config,
  };
  const service = (member: ClusterMembership) =>
    new AgentService({
      db,
      bus: member.bus,
      instance: member.instance,
      config,
      workspace: () => workspace.port,
      workspaceInfo: async () => ({ egress: false }),
      retryBaseMs: 10,
      ...options.service,
    });
  const agent = service(cluster);
  await agent.init();
  const watchers: { sessionId: string; view: EventLogView; controller: AbortController }[] = [];

  const watch = (sessionId: string): EventLogView => {
    const controller = new AbortController();
    const view = collectEvents(agent.follow(sessionId, null, controller.signal));
    watchers.push({ sessionId, view, controller });
    return view;
  };

  return {
    agent,
    db,
    cluster,
    async startAnother() {
      const member = await joinCluster(database.settings, db, () => {}, TEST_HEARTBEAT);
      const other = service(member);
      others.push({ cluster: member, agent: other });
      await other.init();
      return other;
    },
    model,
    workspace,
    workspaceId,
    newSession: (agentName = "build") => agent.create({ workspaceId, agent: agentName }),
    watch,
    async toolParts(sessionId) {
      return (await agent.get(sessionId)).messages
        .flatMap((m) => m.parts)
        .filter((p): p is ToolPart => p.type === "tool");
    },
    async run(sessionId, text) {
      const view = watch(sessionId);
      const { turnId } = await agent.prompt({ sessionId, text });
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      await agent.idle(sessionId); // and the checks that may follow it
      // Subscribers read from the database after each commit: let every watcher catch up.
      const last = await agent.store.lastEventId(sessionId);
      const views = watchers.filter((w) => w.sessionId === sessionId).map((w) => w.view);
      await Promise.all(views.map((v) => v.waitFor((e) => e.id >= last)));
      return (end as Extract<StoredSessionEvent, { type: "turn.finished" }>).turn;
    },
    async close() {
      for (const w of watchers) w.controller.abort();
      await agent.close();
      for (const other of others) {
        await other.agent.close();
        await other.cluster.leave();
      }
      await cluster.leave();
      await model.close();
      await workspace.close();
      await database.close();
    },
  };
}
