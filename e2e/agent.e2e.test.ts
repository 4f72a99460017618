import type { TRPCClient } from "@trpc/client";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { logIn } from "./support/browser";
import type { ModelServer } from "./support/model-server";
import type { Stack } from "./support/stack";

describe("the agent in the IDE, in Chromium", () => {
  const made = useAgentWorkspace("e2e agent");
  let stack: Stack;
  let browser: Browser;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    ({ stack, browser, model, api, workspaceId } = made());
  });

  /** The IDE of the test workspace with a new conversation open (its session starts with the first message). */
  async function openChat(): Promise<Page> {
    const page = await browser.newPage();
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    // Ready: hydrated, with the session list loaded.
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByTestId("session-new").click();
    await page.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    return page;
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.getByTestId("chat-input").fill(text);
    await page.getByTestId("chat-send").click();
  }

  const card = (page: Page, tool: string) =>
    page.locator(`[data-testid=tool-card][data-tool="${tool}"]`).last();
  const assistantText = (page: Page) =>
    page.locator("[data-testid=message][data-role=assistant]").last().innerText();

  it("reads and edits a file: the diff shows, the open tab follows, and revert turn restores it", async () => {
    await api.files.write.mutate({ workspaceId, path: "settings.py", content: "DEBUG = True\n" });
    const page = await openChat();
    await page.locator('[data-testid=tree-item][data-path="settings.py"]').click();
    const editor = page.getByTestId("editor").locator(".cm-content");
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("DEBUG = True");

    model.push(
      { toolCalls: [{ name: "read", args: { path: "settings.py" } }] },
      {
        toolCalls: [
          {
            name: "edit",
            args: { path: "settings.py", old_string: "DEBUG = True", new_string: "DEBUG = False" },
          },
        ],
      },
      { text: "Debug mode is **off**." },
    );
    await ask(page, "Turn debug off");

    await card(page, "read").and(page.locator("[data-status=completed]")).waitFor({ timeout: 60_000 });
    const edit = card(page, "edit");
    await edit.and(page.locator("[data-status=completed]")).waitFor({ timeout: 60_000 });
    const diff = edit.getByTestId("tool-diff");
    await expect.poll(() => diff.innerText()).toContain("+DEBUG = False");
    expect(await diff.innerText()).toContain("-DEBUG = True");
    await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("Debug mode is off.");
    // The clean tab shows the agent's edit without a reload.
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("DEBUG = False");

    // The turn's own diff, from its snapshots.
    await page.getByRole("button", { name: "Changes" }).click();
    await expect
      .poll(() => page.getByTestId("turn-diff").innerText(), { timeout: 30_000 })
      .toContain("+DEBUG = False");

    await page.getByTestId("turn-revert").click();
    await page.getByTestId("turn-undo-revert").waitFor({ timeout: 30_000 });
    expect((await api.files.read.query({ workspaceId, path: "settings.py" })).content).toBe("DEBUG = True\n");
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("DEBUG = True");

    await page.getByTestId("turn-undo-revert").click();
    await page.getByTestId("turn-revert").waitFor({ timeout: 30_000 });
    expect((await api.files.read.query({ workspaceId, path: "settings.py" })).content).toBe(
      "DEBUG = False\n",
    );
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("DEBUG = False");
    await page.close();
  });

  it("asks before a shell command: approved, it runs with its output streaming; rejected, the model gets the reason", async () => {
    const page = await openChat();
    const command = "for i in 1 2 3; do echo line$i; sleep 1; done";
    model.push({ toolCalls: [{ name: "bash", args: { command } }] }, { text: "Counted." });
    await ask(page, "count to three");

    const approval = page.getByTestId("approval");
    await approval.waitFor({ timeout: 60_000 });
    expect(await approval.innerText()).toContain("line$i");
    await page.getByTestId("approval-once").click();
    const bash = card(page, "bash");
    const output = bash.getByTestId("tool-output");
    // The first line shows while the command still runs.
    await expect
      .poll(
        async () => `${await bash.getAttribute("data-status")} ${await output.innerText().catch(() => "")}`,
        {
          timeout: 30_000,
        },
      )
      .toMatch(/^running [\s\S]*line1/);
    await bash.and(page.locator("[data-status=completed]")).waitFor({ timeout: 30_000 });
    expect(await output.innerText()).toContain("line3");
    await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("Counted.");

    model.push(
      { toolCalls: [{ name: "bash", args: { command: "rm -rf node_modules" } }] },
      { text: "Fine." },
    );
    await ask(page, "clean up");
    await approval.waitFor({ timeout: 60_000 });
    const before = model.requests.length;
    await page.getByTestId("approval-message").fill("keep node_modules, I need it offline");
    await page.getByTestId("approval-reject").click();
    await approval.waitFor({ state: "detached", timeout: 30_000 });
    await model.waitForRequests(before + 1);
    expect(model.toolResults(before).join("\n")).toContain("keep node_modules, I need it offline");
    await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("Fine.");
    await page.close();
  });

  it("shows the agent's question, and the chosen answer reaches the model", async () => {
    const page = await openChat();
    const questions = [{ question: "Which test runner?", options: ["vitest", "jest"] }];
    model.push({ toolCalls: [{ name: "question", args: { questions } }] }, { text: "Using vitest." });
    await ask(page, "add tests");

    const question = page.getByTestId("question");
    await question.waitFor({ timeout: 60_000 });
    expect(await question.innerText()).toContain("Which test runner?");
    const before = model.requests.length;
    await question.getByLabel("vitest").check();
    await page.getByTestId("question-submit").click();
    await model.waitForRequests(before + 1);
    expect(model.toolResults(before).join("\n")).toContain("vitest");
    await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("Using vitest.");
    await page.close();
  });

  it("resumes a streaming answer after a reload without gaps or repeats", async () => {
    const page = await openChat();
    const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
    model.push({ text: words, delayMs: 200 });
    await ask(page, "say forty words");

    await expect.poll(() => assistantText(page).catch(() => ""), { timeout: 60_000 }).toContain("w5");
    await page.reload();
    await page.getByTestId("chat-panel").waitFor({ timeout: 30_000 });
    // The reload lands in the middle of the turn: the stream carries on from there.
    await page.getByTestId("chat-abort").waitFor({ timeout: 30_000 });
    await expect.poll(() => assistantText(page).catch(() => ""), { timeout: 60_000 }).toContain("w39");
    expect((await assistantText(page)).trim()).toBe(words.join("").trim());
    await page.getByTestId("chat-send").waitFor({ timeout: 30_000 });
    await page.close();
  });

  it("runs a sub-agent for a task and shows its session inside the task card", async () => {
    const page = await openChat();
    // Requests arrive in this order: the parent's first step, the child's turn, the parent's last step.
    model.push(
      { toolCalls: [{ name: "task", args: { agent: "explore", objective: "Find the settings file" } }] },
      { text: "The settings live in settings.py." },
      { text: "The explorer found them in settings.py." },
    );
    await ask(page, "Where are the settings?");
    const task = card(page, "task");
    await task.and(page.locator("[data-status=completed]")).waitFor({ timeout: 60_000 });
    await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("The explorer found them");
    await task.getByTestId("subagent-toggle").click();
    await expect
      .poll(() => task.getByTestId("subagent-session").innerText(), { timeout: 30_000 })
      .toContain("The settings live in settings.py.");
    await page.close();
  });
});
