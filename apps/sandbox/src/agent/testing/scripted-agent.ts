import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type ModelServer,
  type ModelServerOptions,
  startModelServer,
} from "../../../../../e2e/support/model-server";
import { startTestService, type TestService, waitForStatus } from "../../testing/harness";
import { collectEvents, type EventLogView } from "./event-view";
import { sessionEventStream } from "./sse-events";

export interface ScriptedAgent {
  model: ModelServer;
  t: TestService;
  /** A running workspace, made for the test. */
  workspaceId: string;
  /** A new session in the workspace and its events as the browser receives them (SSE), until `signal`. */
  session(signal: AbortSignal): Promise<{ id: string; events: EventLogView }>;
  close(): Promise<void>;
}

export interface ScriptedAgentOptions {
  workspaceName: string;
  /** The agent's permission rules (an agent.json `permissions` object); the defaults without it. */
  permissions?: unknown;
  model?: ModelServerOptions;
  /** Extra service environment (CODER_DATA_DIR, …). */
  env?: Record<string, string>;
}

/**
 * The real service on the real engine with one running workspace, whose agent talks to the
 * scripted OpenAI-compatible model server: the set-up of every test that drives an agent turn.
 */
export async function startScriptedAgent(options: ScriptedAgentOptions): Promise<ScriptedAgent> {
  const model = await startModelServer(options.model);
  const configDir =
    options.permissions === undefined ? undefined : mkdtempSync(path.join(tmpdir(), "coder-agent-config-"));
  const agentEnv: Record<string, string> = {
    CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
    CODER_MODELS: "scripted",
  };
  if (configDir) {
    agentEnv.CODER_AGENT_CONFIG = path.join(configDir, "agent.json");
    writeFileSync(agentEnv.CODER_AGENT_CONFIG, JSON.stringify({ permissions: options.permissions }));
  }
  const close = async (t?: TestService) => {
    await t?.close();
    await model.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  };
  let t: TestService | undefined;
  try {
    t = await startTestService({ agentEnv }, options.env);
    const workspaceId = (await t.api.workspace.create.mutate({ name: options.workspaceName })).id;
    await waitForStatus(t.api, workspaceId, "running");
    const started = t;
    const session = async (signal: AbortSignal) => {
      const { id } = await started.api.session.create.mutate({ workspaceId });
      return { id, events: collectEvents(sessionEventStream(started.url, started.cookie, id, signal)) };
    };
    return { model, t: started, workspaceId, session, close: () => close(started) };
  } catch (err) {
    await close(t);
    throw err;
  }
}
