import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { containerName } from "../apps/sandbox/src/docker/container-spec";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { waitForTerminal } from "./support/browser";
import { peopleOn } from "./support/people";
import type { Stack } from "./support/stack";

const run = promisify(execFile);

/** The terminal of the tab shown (the others are mounted, hidden). */
const SHOWN_TERMINAL = "[data-testid=terminal]:not([hidden])";

/**
 * An owner and guests in their own browser contexts, each with a window of their own size: a
 * shared terminal keeps the size of the smallest window of those who may type in it, whoever
 * types; and a guest whose link is revoked keeps nothing typable, can copy out what never
 * reached the workspace, and leaves to a page that says how to come back.
 */
describe("together to the end, in Chromium", () => {
  const made = useAgentWorkspace("together");
  const { ownerIde, join } = peopleOn(made);
  let stack: Stack;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(() => {
    ({ stack, api, workspaceId } = made());
  });

  /** The size tmux gives the shared window of terminal `name`, read inside the workspace. */
  async function tmuxSize(name: string): Promise<string> {
    const { stdout } = await run("docker", [
      "exec",
      containerName(stack.instance, workspaceId),
      "tmux",
      "display-message",
      "-p",
      "-t",
      `=${name}:`,
      "#{window_width}x#{window_height}",
    ]);
    return stdout.trim();
  }

  /** The panel's terminal size on `page`, in cells, once it is attached and fitted. */
  async function panelSize(page: Page, name: string): Promise<string> {
    const terminal = page.locator(`[data-testid=terminal][data-name="${name}"]`);
    await terminal.and(page.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });
    await expect.poll(() => terminal.getAttribute("data-cols")).toMatch(/^\d+$/);
    return `${await terminal.getAttribute("data-cols")}x${await terminal.getAttribute("data-rows")}`;
  }

  it("a shared terminal keeps the size of the smallest window of those who type, whoever types; a viewer's never shrinks it, and the owner sees who is attached", async () => {
    const owner = await ownerIde({ viewport: { width: 1400, height: 900 } });
    const shown = owner.locator(`${SHOWN_TERMINAL}[data-state="open"]`);
    await shown.waitFor({ timeout: 30_000 });
    const name = (await shown.getAttribute("data-name")) ?? "";
    await waitForTerminal(owner, /\$\s*$/m);
    const ownerSize = await panelSize(owner, name);

    const { page: editor } = await join("editor", "Bea", {
      context: { viewport: { width: 760, height: 560 } },
    });
    const editorSize = await panelSize(editor, name);
    const [ownerCols, ownerRows] = ownerSize.split("x").map(Number);
    const [editorCols, editorRows] = editorSize.split("x").map(Number);
    console.log(`owner's panel ${ownerSize}, editor's ${editorSize}`);
    expect(editorCols).toBeLessThan(ownerCols ?? 0);
    expect(editorRows).toBeLessThan(ownerRows ?? 0);
    await expect.poll(() => tmuxSize(name), { timeout: 10_000 }).toBe(editorSize);

    // The editor types, then the owner: the window stays the editor's (it followed the last typist).
    await editor.locator(SHOWN_TERMINAL).click();
    await editor.keyboard.type("echo by-bea-$((2+3))\n");
    await waitForTerminal(editor, /by-bea-5/);
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.type("echo by-owner-$((6*7))\n");
    await waitForTerminal(owner, /by-owner-42/);
    expect(await tmuxSize(name)).toBe(editorSize);

    // The owner's panel shows the unused area plainly, whose window it is sized for, and who is there.
    const unused = owner.getByTestId("terminal-unused");
    await expect.poll(() => unused.getAttribute("data-grid"), { timeout: 10_000 }).toBe(editorSize);
    expect(await owner.getByTestId("terminal-sized-for").innerText()).toBe(
      "sized for the smallest window: Bea's",
    );
    const attachedNames = (page: Page) => page.getByTestId("terminal-attached-name").allInnerTexts();
    await expect.poll(() => attachedNames(owner), { timeout: 10_000 }).toEqual(["Bea", "Owner"]);

    // A viewer with an even smaller window watches: the window does not shrink for them.
    const { page: viewer } = await join("viewer", "Vic", {
      context: { viewport: { width: 560, height: 420 } },
    });
    const viewerSize = await panelSize(viewer, name);
    const [viewerCols] = viewerSize.split("x").map(Number);
    expect(viewerCols).toBeLessThan(editorCols ?? 0);
    await expect.poll(() => attachedNames(owner), { timeout: 10_000 }).toEqual(["Bea", "Owner", "Vic"]);
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.type("echo watched-$((1+1))\n");
    await waitForTerminal(owner, /watched-2/);
    expect(await tmuxSize(name)).toBe(editorSize);

    // The editor leaves: the window is the owner's again.
    await editor.context().close();
    await expect.poll(() => tmuxSize(name), { timeout: 10_000 }).toBe(ownerSize);
    await unused.waitFor({ state: "detached", timeout: 10_000 });
    for (const page of [owner, viewer]) await page.context().close();
  });

  it("a revoked editor's editor turns read-only, the notice offers what never reached the workspace, and Leave says how to come back", async () => {
    await api.files.write.mutate({ workspaceId, path: "notes.txt", content: "first line\n" });
    // The editor's live-editing sockets pass through here, so the test can cut them off.
    let cutOff = false;
    const { page: editor, shareId } = await join("editor", "Rhea", {
      context: { permissions: ["clipboard-read", "clipboard-write"] },
      onJoinPage: (page) =>
        page.routeWebSocket(/\/collab\//, (socket) => {
          const server = socket.connectToServer();
          socket.onMessage((message) => {
            if (!cutOff) server.send(message);
          });
        }),
    });
    await editor.locator('[data-testid=tree-item][data-path="notes.txt"]').click();
    const content = editor.getByTestId("editor").locator(".cm-content");
    const editorText = () => content.innerText();
    await expect.poll(editorText, { timeout: 15_000 }).toContain("first line");
    await content.click();
    await editor.keyboard.press("ControlOrMeta+End");
    await editor.keyboard.type("reached the workspace\n");
    await expect
      .poll(async () => (await api.files.read.query({ workspaceId, path: "notes.txt" })).content, {
        timeout: 10_000,
      })
      .toBe("first line\nreached the workspace\n");

    // Her typing stops reaching the workspace; then the owner revokes her link.
    cutOff = true;
    await editor.keyboard.type("never reached it");
    await expect.poll(editorText).toContain("never reached it");
    await api.share.revoke.mutate({ shareId });
    const notice = editor.getByTestId("access-ended");
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toContain("This link was revoked.");

    // Typing changes nothing, and nothing offers to save or claims to be unsaved.
    const before = await editorText();
    await content.evaluate((el) => (el as HTMLElement).focus());
    await editor.keyboard.type("typed after the end");
    await editor.keyboard.press("Enter");
    expect(await editorText()).toBe(before);
    expect(await content.getAttribute("contenteditable")).toBe("false");
    expect(await editor.getByTestId("save-button").count()).toBe(0);
    await editor.getByTestId("editor-read-only").waitFor();
    expect(await editor.locator('[role=tab][data-dirty="true"]').count()).toBe(0);

    // The notice offers what never reached the workspace.
    await editor.getByTestId("copy-unsaved").click();
    await editor.getByTestId("copy-unsaved-done").waitFor();
    const copied = await editor.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("never reached it");
    expect(copied).not.toContain("typed after the end");
    expect((await api.files.read.query({ workspaceId, path: "notes.txt" })).content).not.toContain(
      "never reached it",
    );

    // "Leave" ends on a page that says she left and how to come back.
    await editor.getByTestId("access-ended-leave").click();
    await editor.waitForURL((u) => u.pathname === "/ended" && u.searchParams.has("left"));
    expect(await editor.getByTestId("left-title").innerText()).toBe("You left together.");
    expect(await editor.getByTestId("left-how-to-come-back").innerText()).toContain(
      "open the link the owner shared with you again",
    );
    await editor.context().close();
  });
});
