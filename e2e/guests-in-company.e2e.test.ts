import { setTimeout as sleep } from "node:timers/promises";
import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { waitForTerminal } from "./support/browser";
import type { ModelServer } from "./support/model-server";
import { peopleOn } from "./support/people";
import type { Stack } from "./support/stack";

/** The terminal of the tab shown (the others are mounted, hidden). */
const SHOWN_TERMINAL = "[data-testid=terminal]:not([hidden])";

/**
 * An owner with an editor and a viewer guest, each in their own browser context: what the owner
 * starts (a conversation, a terminal) shows for the guests as it happens, a guest's "+" never
 * lands in someone else's shell, and a viewer is offered nothing a viewer cannot do.
 */
describe("guests in company, in Chromium", () => {
  const made = useAgentWorkspace("company");
  const { ownerIde, join } = peopleOn(made);
  let stack: Stack;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(() => {
    ({ stack, model, api, workspaceId } = made());
  });

  /** Resolves once `condition` holds, polling every 20 ms; fails at `deadlineMs` after `since`. */
  async function within(since: number, deadlineMs: number, what: string, condition: () => Promise<boolean>) {
    while (!(await condition())) {
      if (Date.now() - since > deadlineMs) throw new Error(`${what} did not happen within ${deadlineMs} ms`);
      await sleep(20);
    }
    return Date.now() - since;
  }

  it("a viewer's and an editor's chat panels show the conversation the owner starts within a second, and who prompted the running turn", async () => {
    const owner = await ownerIde();
    const guests = {
      viewer: (await join("viewer", "Vera")).page,
      editor: (await join("editor", "Eddie")).page,
    };
    for (const page of Object.values(guests)) await page.getByText("No conversation yet.").waitFor();

    // The turn waits for an approval of its shell command, so it is still running when looked at.
    model.push({ toolCalls: [{ name: "bash", args: { command: "echo together" } }] }, { text: "Done." });
    await owner.getByTestId("session-new").click();
    await owner.getByTestId("chat-input").fill("say together");
    await owner.getByTestId("chat-send").click();
    // The owner's page shows the turn asking: the clock starts when the conversation is on screen.
    await owner.getByTestId("approval").waitFor({ timeout: 30_000 });
    const shownToOwner = Date.now();

    for (const [role, page] of Object.entries(guests)) {
      const listed = await within(
        shownToOwner,
        1000,
        `the ${role}'s list showing the owner's conversation`,
        async () => (await page.getByTestId("session-item").count()) === 1,
      );
      const prompter = await within(shownToOwner, 1500, `the ${role}'s panel naming the prompter`, async () =>
        page
          .getByTestId("turn-prompter")
          .innerText({ timeout: 50 })
          .then(
            (text) => text.trim() === "for Owner",
            () => false,
          ),
      );
      console.log(
        `the ${role} sees the owner's conversation ${listed} ms and its prompter ${prompter} ms after the owner`,
      );
    }

    await owner.getByTestId("approval-once").click();
    for (const page of [owner, ...Object.values(guests)]) {
      await page.getByTestId("turn-running").waitFor({ state: "detached", timeout: 30_000 });
    }
    for (const page of [owner, ...Object.values(guests)]) await page.context().close();
  });

  it("an editor's '+' after the owner opened a terminal opens one under a name nobody used, and the menu lists the owner's", async () => {
    // The editor joined before the owner opened the terminal, so they have no tab for it.
    const { page: editor } = await join("editor", "Early");
    await editor.locator(`${SHOWN_TERMINAL}[data-state="open"]`).waitFor({ timeout: 30_000 });
    const owner = await ownerIde();
    const ownerTabs = owner.getByTestId("terminal-tab");
    await ownerTabs.first().waitFor({ timeout: 30_000 });
    const before = await ownerTabs.count();
    await owner.getByTestId("terminal-add").click();
    await expect.poll(() => ownerTabs.count(), { timeout: 15_000 }).toBe(before + 1);
    const ownersName = await ownerTabs.last().getAttribute("data-name");
    await owner.locator(`${SHOWN_TERMINAL}[data-name="${ownersName}"][data-state="open"]`).waitFor({
      timeout: 30_000,
    });
    await waitForTerminal(owner, /\$\s*$/m);
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.type("echo owner-history-$((6*7))\n");
    await waitForTerminal(owner, /owner-history-42/);
    const used = (await api.terminal.list.query({ workspaceId })).names;
    expect(used).toContain(ownersName);

    // The editor's "+" gets a terminal of its own: a new name, a fresh shell.
    const editorTabs = editor.getByTestId("terminal-tab");
    const editorBefore = await editorTabs.count();
    await editor.getByTestId("terminal-add").click();
    await expect.poll(() => editorTabs.count(), { timeout: 15_000 }).toBe(editorBefore + 1);
    const editorsName = await editorTabs.last().getAttribute("data-name");
    expect(used).not.toContain(editorsName);
    await editor.locator(`${SHOWN_TERMINAL}[data-name="${editorsName}"][data-state="open"]`).waitFor({
      timeout: 30_000,
    });
    await waitForTerminal(editor, /\$\s*$/m);
    await editor.locator(SHOWN_TERMINAL).click();
    await editor.keyboard.type("echo editor-own-$((5*5))\n");
    await waitForTerminal(editor, /editor-own-25/);
    expect(await editor.locator(`${SHOWN_TERMINAL} .xterm-rows`).innerText()).not.toContain("owner-history");
    // Typed into the editor's shell, not the owner's.
    expect(await owner.locator(`${SHOWN_TERMINAL} .xterm-rows`).innerText()).not.toContain("editor-own");

    // The menu beside "+" lists the owner's terminal; choosing it opens it as a tab.
    await editor.getByTestId("terminal-menu").click();
    const item = editor.locator(`[data-testid=terminal-menu-item][data-name="${ownersName}"]`);
    await item.waitFor({ timeout: 10_000 });
    await item.click();
    await editor.locator(`${SHOWN_TERMINAL}[data-name="${ownersName}"]`).waitFor({ timeout: 15_000 });
    await waitForTerminal(editor, /owner-history-42/);
    for (const page of [owner, editor]) await page.context().close();
  });

  it("every control a viewer's page shows is one a viewer can use: the workspace list, the IDE and its palette", async () => {
    // A conversation exists (the first test's), so the agent's settings would show.
    expect((await api.session.list.query({ workspaceId })).length).toBeGreaterThan(0);
    const { page: viewer } = await join("viewer", "Valerie");

    /** The visible buttons, fields and pickers of the page, by test id and text. */
    const controls = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("button, select, input, textarea, [role=radio], label")]
          .filter((el) => el.offsetParent !== null || el.getClientRects().length > 0)
          .map(
            (el) =>
              `${el.dataset.testid ?? ""}: ${(el.innerText || el.getAttribute("aria-label") || "").trim()}`,
          ),
      );

    await viewer.goto(stack.url);
    await viewer.getByTestId("workspace-row").waitFor({ timeout: 15_000 });
    const onList = await controls(viewer);
    for (const owners of [
      /^workspace-create:/,
      /^workspace-name:/,
      /^source-git:/,
      /^source-upload:/,
      /^git-url:/,
      /^upload-file:/,
      /^workspace-start:/,
      /^workspace-stop:/,
      /^workspace-delete:/,
      /: (Create|Start|Stop|Delete)$/,
    ]) {
      expect(onList.filter((c) => owners.test(c))).toEqual([]);
    }
    expect(onList.some((c) => c.startsWith("workspace-open:"))).toBe(true);

    await viewer.goto(`${stack.url}/w/${workspaceId}`);
    await viewer.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await viewer.locator("[data-testid=session-item]").first().waitFor();
    await viewer.getByTestId("session-settings-view").waitFor({ timeout: 15_000 });
    await viewer.getByTestId("terminal-panel").waitFor();
    const inIde = await controls(viewer);
    for (const owners of [
      /^agent-picker:/,
      /^model-picker:/,
      /^terminal-add:/,
      /^session-new:/,
      /^chat-input:/,
      /^share-button:/,
      /^workspace-download:/,
      /: \+ (file|folder)$/,
    ]) {
      expect(inIde.filter((c) => owners.test(c))).toEqual([]);
    }

    // The file tree is no drop target for a viewer: the browser would not even let go of a file there.
    const accepted = await viewer.getByTestId("file-tree").evaluate((tree) => {
      const data = new DataTransfer();
      data.items.add(new File(["x"], "dropped.txt"));
      const over = new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true });
      tree.dispatchEvent(over);
      return over.defaultPrevented;
    });
    expect(accepted).toBe(false);

    // The palette offers no change: no owner's actions, no editor's.
    await viewer.keyboard.press("ControlOrMeta+Shift+p");
    const items = viewer.getByTestId("command-palette-item");
    await items.first().waitFor();
    const offered = await items.allInnerTexts();
    for (const change of [
      /^Start the workspace/,
      /^Stop the workspace/,
      /^Share the workspace/,
      /^New (terminal|file|folder)/,
      /^Replace/,
      /^Save file/,
      /^Ask the agent/,
    ]) {
      expect(offered.filter((o) => change.test(o))).toEqual([]);
    }
    await viewer.context().close();
  });
});
