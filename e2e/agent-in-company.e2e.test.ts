import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TRPCClient } from "@trpc/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { launchBrowser, logIn } from "./support/browser";
import { type ModelServer, startModelServer } from "./support/model-server";
import { type Stack, startStack } from "./support/stack";

describe("the agent in company, in two browsers", () => {
  let stack: Stack;
  let browser: Browser;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;
  let configDir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    model = await startModelServer();
    configDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-company-"));
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
    api = trpcClient(stack.url, await login(stack.url, stack.token));
    workspaceId = (await api.workspace.create.mutate({ name: "company" })).id;
    await waitForStatus(api, workspaceId, "running");
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
    await model?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  /** A page of its own browser context (its own cookies) on the workspace's IDE, chat loaded. */
  async function ide(signIn: (page: Page) => Promise<void>): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    return page;
  }

  it("the owner sees the guest's prompt under her name, the approval live, and who approved it", async () => {
    // One session both open (the chat shows the newest).
    await api.session.create.mutate({ workspaceId });
    const link = await api.share.create.mutate({ workspaceId, role: "editor" });
    const owner = await ide((page) => logIn(page, stack.url, stack.token));
    const ada = await ide(async (page) => {
      await page.goto(link.url);
      await page.getByTestId("join-name").fill("Ada");
      await page.getByTestId("join-submit").click();
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    });

    model.push({ toolCalls: [{ name: "bash", args: { command: "echo together" } }] }, { text: "Done." });
    await ada.getByTestId("chat-input").fill("say together");
    await ada.getByTestId("chat-send").click();

    for (const page of [owner, ada]) {
      const prompt = page.locator("[data-testid=message][data-role=user]").last();
      await expect
        .poll(() => prompt.getByTestId("message-author").textContent(), { timeout: 30_000 })
        .toBe("Ada");
      // The request reaches both pages while it waits, with the means to answer for an editor too.
      await page.getByTestId("approval-once").waitFor({ timeout: 30_000 });
    }
    await ada.getByTestId("approval-once").click();

    for (const page of [owner, ada]) {
      const call = page.locator('[data-testid=tool-card][data-tool="bash"]').last();
      await expect
        .poll(() => call.getByTestId("tool-answered-by").textContent(), { timeout: 30_000 })
        .toBe("Approved by Ada");
      // The owner's prompt is gone: the request was answered.
      await expect.poll(() => page.getByTestId("approval").count()).toBe(0);
    }
  });
});
