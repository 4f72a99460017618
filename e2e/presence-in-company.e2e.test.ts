import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import type { ModelServer } from "./support/model-server";
import { peopleOn } from "./support/people";

const NOTES = "notes.txt";

/** Owner and an editor guest, each in their own Chromium context, with the agent on the scripted model. */
describe("presence in company, in Chromium", () => {
  const made = useAgentWorkspace("presence");
  const { ownerIde, join } = peopleOn(made);
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    ({ model, api, workspaceId } = made());
  });

  const tab = (page: Page, path: string) => page.locator(`[data-testid=editor-tab][data-path="${path}"]`);
  async function openLive(page: Page, path: string): Promise<void> {
    await page.locator(`[data-testid=tree-item][data-path="${path}"]`).click();
    await expect.poll(() => tab(page, path).getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
  }
  const activeTab = (page: Page) =>
    page.locator('[data-testid=editor-tab][aria-selected="true"]').getAttribute("data-path");
  /** The lines the editor draws now (only those near the view), without the carets' name labels. */
  const drawnLines = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll("[data-testid=editor] .cm-line")).map((line) => {
        const copy = line.cloneNode(true) as Element;
        for (const caret of copy.querySelectorAll(".cm-ySelectionCaret")) caret.remove();
        return (copy.textContent ?? "").replaceAll("\u2060", "");
      }),
    );
  const caretLabels = (page: Page) =>
    page.getByTestId("editor").locator(".cm-ySelectionInfo").allInnerTexts();
  const agentEntry = (page: Page) => page.locator("[data-testid=presence-person][data-agent-for]");

  it("shows the agent for the person who prompted it, at the file it reads or changes, until its turn ends", async () => {
    await api.files.write.mutate({ workspaceId, path: NOTES, content: "alpha\nbeta\ngamma\n" });
    await api.session.create.mutate({ workspaceId });
    const [own, { page: ada }] = [await ownerIde(), await join("editor", "Ada")];
    await Promise.all([openLive(own, NOTES), openLive(ada, NOTES)]);
    // The agent reads the notes, edits their second line, then answers slowly: seconds still at work.
    model.push(
      { toolCalls: [{ name: "read", args: { path: NOTES } }] },
      { toolCalls: [{ name: "edit", args: { path: NOTES, old_string: "beta", new_string: "beta +agent" } }] },
      { text: Array.from({ length: 20 }, (_, i) => `word${i} `), delayMs: 400 },
    );
    await ada.getByTestId("chat-input").fill("mark beta");
    await ada.getByTestId("chat-send").click();

    for (const page of [own, ada]) {
      await expect
        .poll(() => agentEntry(page).getAttribute("data-agent-for"), { timeout: 30_000 })
        .toBe("Ada");
      await expect.poll(() => agentEntry(page).getAttribute("data-file"), { timeout: 30_000 }).toBe(NOTES);
      expect(await agentEntry(page).innerText()).toContain("Agent · for Ada");
    }
    // Its edit carries the same label in the editors.
    await expect.poll(() => caretLabels(own), { timeout: 30_000 }).toContain("Agent · for Ada");
    // The turn ends: the agent leaves everyone's list.
    for (const page of [own, ada])
      await expect.poll(() => agentEntry(page).count(), { timeout: 60_000 }).toBe(0);
    await Promise.all([own, ada].map((page) => page.context().close()));
  });

  it("follows a person from the presence list until the follower types, marks their file in the tree, and drops their caret when they close it", async () => {
    const long = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n");
    await api.files.write.mutate({ workspaceId, path: "long.txt", content: `${long}\n` });
    await api.files.write.mutate({ workspaceId, path: "short.txt", content: "short file\n" });
    const [own, { page: ed }] = [await ownerIde(), await join("editor", "Ed")];
    await openLive(own, "long.txt");
    // The owner's cursor goes to the end of the long file.
    await own.getByTestId("editor").locator(".cm-line").first().click();
    await own.keyboard.press("Control+End");

    // Ed's tree marks the file the owner has open, in the owner's colour.
    const ownerEntry = ed.locator("[data-testid=presence-person][data-role=owner]");
    const mark = ed.locator('[data-testid=tree-item][data-path="long.txt"] [data-testid=tree-mark]');
    await expect.poll(() => mark.count(), { timeout: 30_000 }).toBe(1);
    expect(
      await ed.locator('[data-testid=tree-item][data-path="short.txt"] [data-testid=tree-mark]').count(),
    ).toBe(0);

    // Ed follows the owner: the long file opens where the owner's cursor is.
    await ownerEntry.getByTestId("presence-follow").click();
    await expect.poll(() => activeTab(ed), { timeout: 30_000 }).toBe("long.txt");
    await expect.poll(() => drawnLines(ed), { timeout: 30_000 }).toContain("line 300");
    // (CodeMirror always draws the line of Ed's own cursor, line 1: look at one near it instead.)
    expect(await drawnLines(ed)).not.toContain("line 3");
    expect(await ed.getByTestId("follow-bar").innerText()).toContain("Following Owner");

    // The owner moves to the top: Ed's view goes along.
    await own.keyboard.press("Control+Home");
    await expect.poll(() => drawnLines(ed), { timeout: 30_000 }).toContain("line 3");
    expect(await drawnLines(ed)).not.toContain("line 300");
    // The owner opens another file: Ed's editor follows.
    await openLive(own, "short.txt");
    await expect.poll(() => activeTab(ed), { timeout: 30_000 }).toBe("short.txt");

    // Ed types: following stops, and the owner's next file stays the owner's.
    await ed.getByTestId("editor").locator(".cm-content").focus();
    await ed.keyboard.type("typed ");
    await expect.poll(() => ed.getByTestId("follow-bar").count()).toBe(0);
    await own.locator('[data-testid=tree-item][data-path="long.txt"]').click();
    await expect.poll(() => ownerEntry.getAttribute("data-file"), { timeout: 30_000 }).toBe("long.txt");
    expect(await activeTab(ed)).toBe("short.txt");

    // Ed looks at the long file where the owner's caret is; the owner closes it while typing there.
    await own.getByTestId("editor").locator(".cm-line").first().click();
    await tab(ed, "long.txt").click();
    await expect.poll(() => caretLabels(ed), { timeout: 30_000 }).toContain("Owner");
    // Closed without leaving the editor first (as a shortcut would), so only the closing can clear it.
    await own.evaluate(() => document.querySelector<HTMLElement>('[aria-label="Close long.txt"]')?.click());
    await expect.poll(() => caretLabels(ed), { timeout: 30_000 }).not.toContain("Owner");
    await Promise.all([own, ed].map((page) => page.context().close()));
  });
});
