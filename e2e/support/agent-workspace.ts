import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TRPCClient } from "@trpc/client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { login, trpcClient, waitForStatus } from "../../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../../apps/sandbox/src/trpc/router";
import { launchBrowser } from "./browser";
import { type ModelServer, type ModelServerOptions, startModelServer } from "./model-server";
import { type Stack, startStack } from "./stack";

export interface AgentWorkspace {
  stack: Stack;
  browser: Browser;
  /** The scripted model the agent talks to: push the turns a test expects. */
  model: ModelServer;
  /** The owner's API client. */
  api: TRPCClient<AppRouter>;
  /** A running workspace made for the tests. */
  workspaceId: string;
}

/**
 * For the tests of one `describe`: the whole product with the agent on the scripted model (shell
 * commands ask first, so approvals can be seen), a Chromium, and one running workspace named
 * `name`. Made before the tests, removed after them; read it inside a hook or a test.
 * `modelOptions` say how the model answers beyond what a test pushes.
 */
export function useAgentWorkspace(name: string, modelOptions?: ModelServerOptions): () => AgentWorkspace {
  let made: AgentWorkspace | undefined;
  let configDir: string | undefined;
  let model: ModelServer | undefined;
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    model = await startModelServer(modelOptions);
    configDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-agent-"));
    const configFile = path.join(configDir, "agent.json");
    writeFileSync(configFile, JSON.stringify({ permissions: { "*": { bash: "ask" } } }));
    [stack, browser] = await Promise.all([
      startStack({
        agentEnv: {
          CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
          CODER_MODELS: "scripted",
          CODER_AGENT_CONFIG: configFile,
        },
      }),
      launchBrowser(),
    ]);
    const api = trpcClient(stack.url, await login(stack.url, stack.token));
    const workspaceId = (await api.workspace.create.mutate({ name })).id;
    await waitForStatus(api, workspaceId, "running");
    made = { stack, browser, model, api, workspaceId };
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await model?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });
  return () => {
    if (!made) throw new Error("the agent workspace is made in beforeAll: read it inside a hook or a test");
    return made;
  };
}
