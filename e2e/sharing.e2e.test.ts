import type { TRPCClient } from "@trpc/client";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { terminalText, waitForTerminal } from "./support/browser";
import type { ModelServer } from "./support/model-server";
import { peopleOn } from "./support/people";
import type { Stack } from "./support/stack";

/** The terminal of the tab shown (the others are mounted, hidden). */
const SHOWN_TERMINAL = "[data-testid=terminal]:not([hidden])";

/**
 * Two people on one workspace, each in their own browser context: the owner shares a link from
 * the IDE, a guest joins through it under a name, and the role decides what the guest's page
 * offers and what the service lets through.
 */
describe("sharing a workspace by link, in Chromium", () => {
  const made = useAgentWorkspace("pair");
  const { ownerIde, joinByLink } = peopleOn(made);
  let stack: Stack;
  let browser: Browser;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    ({ stack, browser, model, api, workspaceId } = made());
    await api.files.write.mutate({ workspaceId, path: "notes.txt", content: "first line\n" });
  });

  /** Makes a link in the owner's Share dialog and returns its URL. */
  async function share(owner: Page, role: "viewer" | "editor"): Promise<string> {
    await owner.getByTestId("share-button").click();
    await owner.getByTestId("share-role").selectOption(role);
    await owner.getByTestId("share-expiry").selectOption("1 hour");
    await owner.getByTestId("share-create").click();
    const url = owner.getByTestId("share-url");
    await expect.poll(() => url.inputValue(), { timeout: 10_000 }).toMatch(/\/s\/[A-Za-z0-9_-]{40,}$/);
    const value = await url.inputValue();
    await owner.keyboard.press("Escape");
    return value;
  }

  /** A new person opens the link, sees what they are asked to join, gives a name and lands in the IDE. */
  const join = (url: string, name: string, role: "viewer" | "editor") =>
    joinByLink(url, name, {
      onJoinPage: (page) =>
        expect.poll(() => page.getByTestId("join-title").innerText()).toBe(`Join pair as ${role}`),
    });

  const presence = (page: Page) => page.getByTestId("presence").innerText();
  const editorText = (page: Page) => page.getByTestId("editor").locator(".cm-content").innerText();
  const openFile = (page: Page, file: string) =>
    page.locator(`[data-testid=tree-item][data-path="${file}"]`).click();
  const openTerminal = (page: Page) =>
    page.locator(`${SHOWN_TERMINAL}[data-state="open"]`).waitFor({ timeout: 30_000 });

  /** A tRPC mutation sent from the page with its cookie, as a page script could: the HTTP status. */
  const postFromPage = (page: Page, procedure: string, input: unknown) =>
    page.evaluate(
      async ({ procedure, input }) =>
        (
          await fetch(`/api/trpc/${procedure}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(input),
          })
        ).status,
      { procedure, input },
    );

  it("a viewer joins by name, both see each other, and the viewer can type nowhere: not in the page, not through the API", async () => {
    // A conversation exists, so the viewer's chat shows one (without an input).
    await api.session.create.mutate({ workspaceId });
    const owner = await ownerIde();
    const viewer = await join(await share(owner, "viewer"), "Vera", "viewer");

    for (const page of [owner, viewer]) {
      await expect
        .poll(() => presence(page), { timeout: 10_000 })
        .toMatch(/Owner[\s\S]*Vera|Vera[\s\S]*Owner/);
    }
    // The guest is marked a guest on both pages; the owner is not.
    const badge = (page: Page, name: string) =>
      page.locator(`[data-testid=presence-person][data-name="${name}"] [data-testid=guest-badge]`).count();
    for (const page of [owner, viewer])
      expect([await badge(page, "Vera"), await badge(page, "Owner")]).toEqual([1, 0]);
    expect(await viewer.getByTestId("role-badge").innerText()).toBe("viewer");
    expect(await viewer.getByTestId("share-button").count()).toBe(0);
    // The owner's open file shows next to their name on the viewer's page.
    await openFile(owner, "notes.txt");
    const ownerOnViewer = viewer.locator('[data-testid=presence-person][data-name="Owner"]');
    await expect.poll(() => ownerOnViewer.getAttribute("data-file"), { timeout: 10_000 }).toBe("notes.txt");

    // The editor shows the file and takes no typing.
    await openFile(viewer, "notes.txt");
    await expect.poll(() => editorText(viewer), { timeout: 15_000 }).toContain("first line");
    await viewer.getByTestId("editor").locator(".cm-content").click();
    await viewer.keyboard.type("typed by the viewer");
    expect(await editorText(viewer)).not.toContain("typed by the viewer");

    // The terminal shows the owner's screen; the viewer's keys go nowhere.
    await Promise.all([openTerminal(owner), openTerminal(viewer)]);
    expect(await viewer.locator(SHOWN_TERMINAL).getAttribute("data-read-only")).toBe("true");
    expect(await viewer.getByTestId("terminal-add").count()).toBe(0);
    await viewer.locator(SHOWN_TERMINAL).click();
    await viewer.keyboard.type("echo from-the-viewer\n");
    await waitForTerminal(owner, /\$\s*$/m);
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.type("echo from-the-owner\n");
    await waitForTerminal(viewer, /from-the-owner[\s\S]*from-the-owner/);
    // Sent before the owner's line, the viewer's would show before it if it had reached the shell.
    expect(await terminalText(owner)).not.toContain("from-the-viewer");

    // The file tree offers no changes, and the command palette only what a viewer may do.
    expect(await viewer.getByTitle("New file").count()).toBe(0);
    await viewer.locator('[data-testid=tree-item][data-path="notes.txt"]').click({ button: "right" });
    expect(await viewer.getByTestId("tree-delete").count()).toBe(0);
    await viewer.keyboard.press("Escape");

    // The chat has no input and no way to start a session.
    await viewer.getByTestId("chat-view-only").waitFor();
    expect(await viewer.getByTestId("chat-input").count()).toBe(0);
    expect(await viewer.getByTestId("session-new").count()).toBe(0);

    // The owner's prompt asks for an approval: the viewer sees it live, without buttons.
    model.push({ toolCalls: [{ name: "bash", args: { command: "echo seen-by-vera" } }] }, { text: "Done." });
    await owner.getByTestId("chat-input").fill("say it");
    await owner.getByTestId("chat-send").click();
    await viewer.getByTestId("approval-watch-only").waitFor({ timeout: 60_000 });
    expect(await viewer.getByTestId("approval-once").count()).toBe(0);
    await owner.getByTestId("approval-once").click();
    await expect
      .poll(() => viewer.getByTestId("tool-answered-by").last().innerText(), { timeout: 30_000 })
      .toContain("Approved by Owner");

    // What the page hides, the service refuses.
    expect(await postFromPage(viewer, "files.write", { workspaceId, path: "notes.txt", content: "x" })).toBe(
      403,
    );
    expect(await postFromPage(viewer, "session.create", { workspaceId })).toBe(403);
    expect(await postFromPage(viewer, "share.create", { workspaceId, role: "editor" })).toBe(403);
    expect((await api.files.read.query({ workspaceId, path: "notes.txt" })).content).toBe("first line\n");

    // The owner's dialog lists who joined through the link.
    await owner.getByTestId("share-button").click();
    await expect
      .poll(() => owner.getByTestId("share-joined").first().innerText(), { timeout: 10_000 })
      .toContain("joined: Vera");
    await owner.context().close();
    await viewer.context().close();
  });

  it("guests see the terminals open in the workspace: a viewer's tabs follow the owner's, an editor joining finds them", async () => {
    const owner = await ownerIde();
    const viewer = await join(await share(owner, "viewer"), "Vi", "viewer");
    // The service names the new terminal: its tab comes once "+" has an answer.
    const tabs = owner.getByTestId("terminal-tab");
    const before = await tabs.count();
    await owner.getByTestId("terminal-add").click();
    await expect.poll(() => tabs.count(), { timeout: 15_000 }).toBe(before + 1);
    const added = await owner
      .locator('[data-testid=terminal-tab][aria-selected="true"]')
      .getAttribute("data-name");
    const onOwner = owner.locator(`[data-testid=terminal][data-name="${added}"]`);
    await onOwner.and(owner.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });

    // The viewer gets a tab for it and watches what the owner types there.
    const viewerTab = viewer.locator(`[data-testid=terminal-tab][data-name="${added}"]`);
    await viewerTab.waitFor({ timeout: 15_000 });
    await viewerTab.click();
    await onOwner.click();
    await owner.keyboard.type("echo in-the-new-$((20+1))\n");
    const onViewer = viewer.locator(`[data-testid=terminal][data-name="${added}"] .xterm-rows`);
    await expect.poll(() => onViewer.innerText(), { timeout: 15_000 }).toContain("in-the-new-21");

    // Someone joining as an editor finds it among their tabs on their first visit.
    const editor = await join(await share(owner, "editor"), "Eda", "editor");
    await editor.locator(`[data-testid=terminal-tab][data-name="${added}"]`).waitFor({ timeout: 15_000 });
    await editor
      .locator(`[data-testid=terminal][data-name="${added}"][data-state="open"]`)
      .waitFor({ state: "attached", timeout: 30_000 });

    // Its shell ends: the viewer's tab goes away.
    await onOwner.click();
    await owner.keyboard.type("exit\n");
    await viewerTab.waitFor({ state: "detached", timeout: 15_000 });
    for (const page of [owner, viewer, editor]) await page.context().close();
  });

  it("an editor guest edits a file, types in the terminal and approves the agent's shell command", async () => {
    const owner = await ownerIde();
    const editor = await join(await share(owner, "editor"), "Ed", "editor");
    expect(await editor.getByTestId("role-badge").innerText()).toBe("editor");

    await openFile(editor, "notes.txt");
    await expect.poll(() => editorText(editor), { timeout: 15_000 }).toContain("first line");
    await editor.getByTestId("editor").locator(".cm-content").click();
    await editor.keyboard.press("ControlOrMeta+End");
    await editor.keyboard.type("second line by Ed\n");
    await editor.keyboard.press("ControlOrMeta+s");
    await expect
      .poll(async () => (await api.files.read.query({ workspaceId, path: "notes.txt" })).content, {
        timeout: 10_000,
      })
      .toBe("first line\nsecond line by Ed\n");

    await openTerminal(editor);
    await waitForTerminal(editor, /\$\s*$/m);
    await editor.locator(SHOWN_TERMINAL).click();
    await editor.keyboard.type("echo typed-by-ed > ed.txt\n");
    await expect
      .poll(
        () =>
          api.files.read.query({ workspaceId, path: "ed.txt" }).then(
            (f) => f.content,
            () => "",
          ),
        { timeout: 15_000 },
      )
      .toBe("typed-by-ed\n");

    // A new conversation is a draft until its first message.
    await editor.getByTestId("session-new").click();
    await editor.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    model.push(
      { toolCalls: [{ name: "bash", args: { command: "echo approved-by-ed" } }] },
      { text: "Done." },
    );
    await editor.getByTestId("chat-input").fill("say it");
    await editor.getByTestId("chat-send").click();
    await editor.getByTestId("approval").waitFor({ timeout: 60_000 });
    await editor.getByTestId("approval-once").click();
    const bash = editor.locator("[data-testid=tool-card][data-tool=bash]").last();
    await bash.and(editor.locator("[data-status=completed]")).waitFor({ timeout: 30_000 });
    expect(await bash.getByTestId("tool-output").innerText()).toContain("approved-by-ed");
    await owner.context().close();
    await editor.context().close();
  });

  it("revoking the link closes the guest's terminal and live updates at once, and the page says the link was revoked", async () => {
    const owner = await ownerIde();
    const guest = await join(await share(owner, "viewer"), "Rita", "viewer");
    await openTerminal(guest);
    await expect.poll(() => presence(owner), { timeout: 10_000 }).toContain("Rita");

    await owner.getByTestId("share-button").click();
    // The newest link comes first.
    const link = owner.getByTestId("share-link").first();
    await expect
      .poll(() => link.getByTestId("share-joined").innerText(), { timeout: 10_000 })
      .toContain("Rita");
    const revokedAt = Date.now();
    await link.getByTestId("share-revoke").click();

    const notice = guest.getByTestId("access-ended");
    await notice.waitFor({ timeout: 10_000 });
    console.log(`revoke → the guest's page says so: ${Date.now() - revokedAt} ms (through Chromium)`);
    expect(await notice.innerText()).toContain("This link was revoked.");
    await guest.locator(`${SHOWN_TERMINAL}[data-state="revoked"]`).waitFor({ timeout: 10_000 });
    // Her live presence subscription ended too: she is gone from the owner's header.
    await expect.poll(() => presence(owner), { timeout: 10_000 }).not.toContain("Rita");
    await expect.poll(() => link.getAttribute("data-state"), { timeout: 10_000 }).toBe("revoked");

    // Every later request is refused, and a reload says the same.
    expect(
      await postFromPage(guest, "presence.openFile", { workspaceId, clientId: "afterrevoke0", path: null }),
    ).toBe(401);
    await guest.reload();
    await expect
      .poll(() => guest.getByTestId("access-ended").innerText())
      .toContain("This link was revoked.");
    await owner.context().close();
    await guest.context().close();
  });

  it("a wrong link says plainly that it is not valid", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${stack.url}/s/notasecretofanylink`);
    await expect
      .poll(() => page.getByTestId("join-error").textContent())
      .toBe("this link is not valid: it may have been revoked or expired");
    await page.context().close();
  });
});
