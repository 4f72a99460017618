import type { TRPCClient } from "@trpc/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { logIn } from "./support/browser";
import type { ModelServer } from "./support/model-server";
import type { Stack } from "./support/stack";

describe("the agent in company, in two browsers", () => {
  const made = useAgentWorkspace("company");
  let stack: Stack;
  let browser: Browser;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ stack, browser, model, api, workspaceId } = made());
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
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
      // She chose her name: every page marks her a guest.
      expect(await prompt.getByTestId("guest-badge").count()).toBe(1);
      // The request reaches both pages while it waits, with the means to answer for an editor too.
      await page.getByTestId("approval-once").waitFor({ timeout: 30_000 });
    }
    await ada.getByTestId("approval-once").click();

    for (const page of [owner, ada]) {
      const call = page.locator('[data-testid=tool-card][data-tool="bash"]').last();
      await expect
        .poll(() => call.getByTestId("tool-answered-by").textContent(), { timeout: 30_000 })
        .toBe("Approved by Ada (guest)");
      // The owner's prompt is gone: the request was answered.
      await expect.poll(() => page.getByTestId("approval").count()).toBe(0);
    }
  });
});
