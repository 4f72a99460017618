import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import type { TRPCClient } from "@trpc/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GitServer,
  hostGit,
  makeRepository,
  startGitServer,
} from "../apps/sandbox/src/imports/testing/git-server";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { launchBrowser, logIn, waitForTerminal } from "./support/browser";
import { CHAT_READY, peopleOn } from "./support/people";
import { type Stack, startStack } from "./support/stack";

const panel = (page: Page) => page.getByTestId("source-control-panel");
const fileIn = (page: Page, group: "staged" | "changes", file: string) =>
  panel(page).locator(`[data-testid=changes-${group}] [data-testid=change-file][data-path="${file}"]`);
const hunks = (page: Page) => page.getByTestId("diff-view").getByTestId("diff-hunk");

/** Forty numbered lines; `change` replaces some of them. */
const lines = (change: Record<number, string> = {}) =>
  `${Array.from({ length: 40 }, (_, i) => change[i] ?? `line ${i}`).join("\n")}\n`;

/** Opens `file` through quick open; the page's editor. */
async function openInEditor(page: Page, file: string) {
  await page.keyboard.press("ControlOrMeta+p");
  await page.getByTestId("quick-open-input").fill(file);
  await page.getByTestId("quick-open-item").first().waitFor();
  await page.keyboard.press("Enter");
  const editor = page.getByTestId("editor");
  await editor.locator(".cm-line").first().waitFor({ timeout: 20_000 });
  return editor;
}

/** The gutter's change marker on the editor line holding `text`. */
async function markerBeside(page: Page, text: string) {
  const editor = page.getByTestId("editor");
  const line = await editor.locator(".cm-line", { hasText: text }).boundingBox();
  const markers = editor.locator(".cm-git-gutter .cm-gutterElement");
  for (const marker of await markers.all()) {
    const box = await marker.boundingBox();
    if (line && box && Math.abs(box.y - line.y) < 4 && (await marker.locator("div").count()) > 0)
      return marker;
  }
  throw new Error(`no change marker beside "${text}"`);
}

/**
 * The Source Control panel in Chromium, on a workspace whose repository was made in its terminal:
 * the owner stages one hunk of two from the diff and commits it; a viewer guest sees the same
 * changes and diff with no control that changes anything.
 */
describe("source control in Chromium", () => {
  const made = useAgentWorkspace("repo");
  const { ownerIde, join } = peopleOn(made);
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    ({ api, workspaceId } = made());
    await api.files.write.mutate({ workspaceId, path: "notes.txt", content: lines() });
    // A conversation shows in the chat, as in daily use: the page then holds five live streams, and
    // the panel must not take the last connection the browser allows (the diff would never load).
    await api.session.create.mutate({ workspaceId });
  });

  it("stages one hunk of two from the diff, commits it, and leaves the other under Changes", async () => {
    const owner = await ownerIde();
    const terminal = owner.locator('[data-testid=terminal]:not([hidden])[data-state="open"]');
    await terminal.waitFor({ timeout: 30_000 });
    await terminal.click();
    // The sum is printed only when every step worked, and is not in the command itself.
    await owner.keyboard.type(
      "git init -q && git add -A && git -c user.name=Setup -c user.email=setup@example.invalid commit -qm first && echo REPO-$((40+2))\n",
    );
    await waitForTerminal(owner, /REPO-42/, 30_000);
    // Two changes far apart: two hunks.
    await api.files.write.mutate({
      workspaceId,
      path: "notes.txt",
      content: lines({ 2: "line 2 staged from the diff", 30: "line 30 left for later" }),
    });

    await owner.getByTestId("sidebar-git").click();
    await fileIn(owner, "changes", "notes.txt").waitFor({ timeout: 20_000 });
    expect(await owner.getByTestId("git-branch").innerText()).toMatch(/main|master/);
    await fileIn(owner, "changes", "notes.txt").locator("button").first().click();
    await expect.poll(() => hunks(owner).count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => hunks(owner).first().innerText()).toContain("line 2 staged from the diff");

    await hunks(owner).first().getByTestId("hunk-stage").click();
    await fileIn(owner, "staged", "notes.txt").waitFor({ timeout: 15_000 });
    // The diff of the changes left holds the other hunk only.
    await expect.poll(() => hunks(owner).count(), { timeout: 15_000 }).toBe(1);
    expect(await hunks(owner).first().innerText()).toContain("line 30 left for later");

    await owner.getByTestId("commit-message").fill("Stage one hunk from the panel");
    await owner.getByTestId("commit-button").click();
    const newest = panel(owner).getByTestId("commit-entry").first();
    await expect
      .poll(() => newest.innerText(), { timeout: 15_000 })
      .toContain("Stage one hunk from the panel");
    await expect.poll(() => fileIn(owner, "staged", "notes.txt").count(), { timeout: 15_000 }).toBe(0);
    expect(await fileIn(owner, "changes", "notes.txt").count()).toBe(1);
    expect(await owner.getByTestId("commit-message").inputValue()).toBe("");

    // The workspace has no network and the repository no remote: the panel says both in sentences.
    expect(await owner.getByTestId("git-no-egress").innerText()).toMatch(/no network access/);
    await owner.getByTestId("git-push").click();
    await expect
      .poll(() => owner.getByTestId("git-remote-error").innerText(), { timeout: 20_000 })
      .toBe(
        "This repository has no remote to push to: add one in a terminal (git remote add origin <url>), then push again.",
      );

    // What git itself says: the commit has the first hunk, the work tree still the second.
    const [commit] = await api.git.log.query({ workspaceId, limit: 1 });
    expect(commit?.subject).toBe("Stage one hunk from the panel");
    const left = await api.git.diff.query({ workspaceId, path: "notes.txt" });
    expect(left.patch).toContain("+line 30 left for later");
    expect(left.patch).not.toContain("line 2 staged from the diff");
  });

  it("marks the hunk left out of the commit in the editor's gutter, and a line typed there at once", async () => {
    const owner = await ownerIde();
    await owner.keyboard.press("ControlOrMeta+p");
    await owner.getByTestId("quick-open-input").fill("notes.txt");
    await owner.getByTestId("quick-open-item").first().waitFor();
    await owner.keyboard.press("Enter");
    const editor = owner.getByTestId("editor");
    const markers = (kind: "added" | "changed" | "deleted") =>
      editor.locator(`.cm-git-gutter .cm-git-${kind}`);
    // Only the hunk still unstaged differs from the index: line 30, not the committed line 2.
    await expect.poll(() => markers("changed").count(), { timeout: 20_000 }).toBe(1);
    expect(await markers("added").count()).toBe(0);
    const top = async (locator: ReturnType<Page["locator"]>) =>
      (await locator.boundingBox())?.y ?? Number.NaN;
    const left = editor.locator(".cm-line", { hasText: "line 30 left for later" });
    expect(Math.abs((await top(markers("changed"))) - (await top(left)))).toBeLessThan(4);

    // Typing a line marks it as added while the page stays as it is.
    await editor.locator(".cm-content").click();
    await owner.keyboard.press("ControlOrMeta+Home");
    await owner.keyboard.type("a line typed in the editor\n");
    await expect.poll(() => markers("added").count(), { timeout: 10_000 }).toBe(1);
    const typed = editor.locator(".cm-line", { hasText: "a line typed in the editor" });
    expect(Math.abs((await top(markers("added"))) - (await top(typed)))).toBeLessThan(4);
    expect(await markers("changed").count()).toBe(1);

    // Undone again, so the file on disk is as the next test expects it.
    await owner.keyboard.press("ControlOrMeta+z");
    await expect.poll(() => markers("added").count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(async () => (await api.git.diff.query({ workspaceId, path: "notes.txt" })).patch, {
        timeout: 15_000,
      })
      .not.toContain("a line typed in the editor");
    await owner.close();
  });

  it("clicking a gutter marker shows the lines the index has there, and reverting puts them back", async () => {
    const owner = await ownerIde();
    const ownerEditor = await openInEditor(owner, "notes.txt");
    // A change typed in the editor (line 10) beside the one on disk the next tests need (line 30).
    await ownerEditor.locator(".cm-line", { hasText: /^line 10$/ }).click();
    await owner.keyboard.press("End");
    await owner.keyboard.type(" edited here");
    const changed = (page: Page) => page.getByTestId("editor").locator(".cm-git-gutter .cm-git-changed");
    await expect.poll(() => changed(owner).count(), { timeout: 10_000 }).toBe(2);

    // A viewer guest sees the typed change live and its hunk, with nothing to revert it.
    const { page: viewer } = await join("viewer", "Vic");
    const viewerEditor = await openInEditor(viewer, "notes.txt");
    await viewerEditor.locator(".cm-line", { hasText: "line 10 edited here" }).waitFor({ timeout: 15_000 });
    await expect.poll(() => changed(viewer).count(), { timeout: 10_000 }).toBe(2);
    await (await markerBeside(viewer, "line 10 edited here")).click();
    const viewerPeek = viewer.getByTestId("git-hunk-peek");
    expect(await viewerPeek.getByTestId("git-hunk-index").innerText()).toBe("line 10");
    expect(await viewerPeek.getByTestId("git-hunk-revert").count()).toBe(0);
    await viewerPeek.getByTestId("git-hunk-close").click();
    await expect.poll(() => viewerPeek.count()).toBe(0);

    // The owner types elsewhere, then reverts the hunk: only its lines change, for everyone.
    await ownerEditor.locator(".cm-line", { hasText: /^line 0$/ }).click();
    await owner.keyboard.press("End");
    await owner.keyboard.type(" and more");
    await (await markerBeside(owner, "line 10 edited here")).click();
    const peek = owner.getByTestId("git-hunk-peek");
    expect(await peek.getByTestId("git-hunk-index").innerText()).toBe("line 10");
    await peek.getByTestId("git-hunk-revert").click();
    await expect.poll(() => peek.count()).toBe(0);
    await ownerEditor.locator(".cm-line", { hasText: /^line 10$/ }).waitFor({ timeout: 5_000 });
    expect(await ownerEditor.locator(".cm-line", { hasText: "line 0 and more" }).count()).toBe(1);
    await viewerEditor.locator(".cm-line", { hasText: /^line 10$/ }).waitFor({ timeout: 15_000 });
    expect(await viewerEditor.locator(".cm-line", { hasText: "line 30 left for later" }).count()).toBe(1);
    const onDisk = (content: string) =>
      expect
        .poll(async () => (await api.files.read.query({ workspaceId, path: "notes.txt" })).content, {
          timeout: 15_000,
        })
        .toBe(content);
    const committed = { 2: "line 2 staged from the diff", 30: "line 30 left for later" };
    await onDisk(lines({ ...committed, 0: "line 0 and more" }));

    // Undone again (the typed line), so the file is as the next tests expect it.
    await ownerEditor.locator(".cm-line", { hasText: "line 0 and more" }).click();
    await owner.keyboard.press("End");
    for (let i = 0; i < " and more".length; i++) await owner.keyboard.press("Backspace");
    await onDisk(lines(committed));
    await viewer.close();
    await owner.close();
  });

  it("holds one connection for every live update of the IDE while the panel follows git, and a diff still loads", async () => {
    const { stack, browser } = made();
    const page = await (await browser.newContext()).newPage();
    // The IDE's sockets to the service (not those of the page before it) and any SSE stream.
    let openSockets = 0;
    const streams: string[] = [];
    page.on("websocket", (ws) => {
      if (new URL(ws.url()).pathname !== SUBSCRIPTION_SOCKET_PATH || !page.url().includes("/w/")) return;
      openSockets++;
      ws.on("close", () => openSockets--);
    });
    page.on("request", (request) => {
      if (request.headers().accept?.includes("text/event-stream")) streams.push(request.url());
    });
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    // The conversation, the files, presence, talk and the workspace list are live; then git.
    await page.locator(CHAT_READY).waitFor({ timeout: 60_000 });
    await page.getByTestId("sidebar-git").click();
    await fileIn(page, "changes", "notes.txt").locator("button").first().click();
    await expect.poll(() => hunks(page).count(), { timeout: 15_000 }).toBe(1);
    // A commit by someone else shows without any poll: git.events says the repository moved.
    await api.files.write.mutate({ workspaceId, path: "by-someone-else.txt", content: "theirs\n" });
    await api.git.stage.mutate({ workspaceId, paths: ["by-someone-else.txt"] });
    await api.git.commit.mutate({ workspaceId, message: "Committed by someone else" });
    await expect
      .poll(() => panel(page).getByTestId("commit-entry").first().innerText(), { timeout: 15_000 })
      .toContain("Committed by someone else");
    expect(openSockets).toBe(1);
    expect(streams).toEqual([]);
    await page.context().close();
  });

  it("shows a viewer guest the changes and the diff live, without any control that changes something", async () => {
    const { page: viewer } = await join("viewer", "Vera");
    await viewer.getByTestId("sidebar-git").click();
    await fileIn(viewer, "changes", "notes.txt").waitFor({ timeout: 20_000 });
    await panel(viewer)
      .getByTestId("commit-entry")
      .filter({ hasText: "Stage one hunk from the panel" })
      .waitFor({ timeout: 15_000 });
    await fileIn(viewer, "changes", "notes.txt").locator("button").first().click();
    await expect.poll(() => hunks(viewer).count(), { timeout: 15_000 }).toBe(1);
    expect(await hunks(viewer).first().innerText()).toContain("line 30 left for later");

    for (const control of [
      "hunk-stage",
      "hunk-unstage",
      "file-stage",
      "file-unstage",
      "file-discard",
      "changes-all",
      "commit-message",
      "commit-button",
      "branch-select",
      "branch-new",
      "git-fetch",
      "git-pull",
      "git-push",
    ]) {
      expect(await viewer.getByTestId(control).count(), control).toBe(0);
    }

    // What others do shows at once: a file made through the API, and the owner staging.
    await api.files.write.mutate({ workspaceId, path: "later.txt", content: "new\n" });
    await fileIn(viewer, "changes", "later.txt").waitFor({ timeout: 15_000 });
    await api.git.stage.mutate({ workspaceId, paths: ["notes.txt"] });
    await fileIn(viewer, "staged", "notes.txt").waitFor({ timeout: 15_000 });
  });

  it("lists a merge's conflicted file under Conflicts with git's text, and Mark resolved stages it", async () => {
    const owner = await ownerIde();
    const terminal = owner.locator('[data-testid=terminal]:not([hidden])[data-state="open"]');
    await terminal.waitFor({ timeout: 30_000 });
    await terminal.click();
    // Both branches add clash.txt with other text: the merge stops with a conflict.
    const commit = "git -c user.name=Setup -c user.email=setup@example.invalid commit -q";
    await owner.keyboard.type(
      `${commit}am base && git switch -qc side && echo side > clash.txt && git add clash.txt && ${commit}m side && git switch -q - && echo ours > clash.txt && git add clash.txt && ${commit}m ours; git -c user.name=Setup -c user.email=setup@example.invalid merge side; echo MERGE-$((40+3))\n`,
    );
    await waitForTerminal(owner, /MERGE-43/, 30_000);

    await owner.getByTestId("sidebar-git").click();
    const conflicted = panel(owner).locator(
      '[data-testid=changes-conflicts] [data-testid=change-file][data-path="clash.txt"]',
    );
    await conflicted.waitFor({ timeout: 20_000 });
    await conflicted.locator("button").first().click();
    // A conflicted file opens in the three-way view (e2e/turn-commit-conflict.e2e.test.ts resolves one there).
    await expect
      .poll(() => owner.getByTestId("conflict-result").innerText(), { timeout: 15_000 })
      .toMatch(/<<<<<<<[\s\S]*>>>>>>>/);
    await owner.getByTestId("conflict-close").click();

    await api.files.write.mutate({ workspaceId, path: "clash.txt", content: "both\n" });
    await conflicted.getByTestId("file-stage").click();
    await fileIn(owner, "staged", "clash.txt").waitFor({ timeout: 15_000 });
    expect(await conflicted.count()).toBe(0);
    await owner.getByTestId("commit-message").fill("Merge side, resolved in the panel");
    await owner.getByTestId("commit-button").click();
    await expect
      .poll(() => panel(owner).getByTestId("commit-entry").first().innerText(), { timeout: 15_000 })
      .toContain("Merge side, resolved in the panel");
    const [merge] = await api.git.log.query({ workspaceId, limit: 1 });
    expect(merge?.parents).toHaveLength(2);
  });
});

/**
 * Push and Pull from the panel against a real git server on this machine (git http-backend), which
 * the workspace reaches through its egress and CODER_EGRESS_ALLOW.
 */
describe("pushing and pulling from the Source Control panel, in Chromium", () => {
  let server: GitServer;
  let stack: Stack;
  let browser: Browser;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;
  const bare = () => path.join(server.root, "shared.git");

  beforeAll(async () => {
    server = await startGitServer((root) => {
      makeRepository(root, "shared");
      // git http-backend takes pushes only from a logged-in user unless the repository says so.
      hostGit(path.join(root, "shared.git"), "config", "http.receivepack", "true");
    });
    [stack, browser] = await Promise.all([
      startStack({ env: { CODER_EGRESS_ALLOW: server.allow } }),
      launchBrowser(),
    ]);
    api = trpcClient(stack.url, await login(stack.url, stack.token));
    workspaceId = (
      await api.workspace.create.mutate({
        name: "cloned",
        egress: true,
        source: { type: "git", url: `${server.url}/shared.git` },
      })
    ).id;
    await waitForStatus(api, workspaceId, "running");
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await server?.close();
  });

  it("commits a file, pushes it with the button, pulls what someone else pushed, and pushes a new branch with its upstream", async () => {
    const { ownerIde } = peopleOn(() => ({ stack, browser, api, workspaceId }), "[data-testid=sidebar-git]");
    const owner = await ownerIde();
    await owner.getByTestId("sidebar-git").click();
    const upstream = owner.getByTestId("git-upstream");
    await expect.poll(() => upstream.innerText(), { timeout: 20_000 }).toBe("→ origin/main ↑0 ↓0");
    expect(await owner.getByTestId("git-no-egress").count()).toBe(0);

    await api.files.write.mutate({ workspaceId, path: "from-the-panel.txt", content: "pushed\n" });
    await fileIn(owner, "changes", "from-the-panel.txt").getByTestId("file-stage").click();
    await fileIn(owner, "staged", "from-the-panel.txt").waitFor({ timeout: 15_000 });
    await owner.getByTestId("commit-message").fill("Pushed from the panel");
    await owner.getByTestId("commit-button").click();
    await expect.poll(() => upstream.innerText(), { timeout: 15_000 }).toBe("→ origin/main ↑1 ↓0");

    // git's progress lines show only while the push runs: record each one as it appears.
    await owner.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { gitProgressSeen: seen });
      new MutationObserver(() => {
        for (const line of document.querySelectorAll("[data-testid=git-progress-line]")) {
          seen.push(line.textContent ?? "");
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await owner.getByTestId("git-push").click();
    await expect
      .poll(() => owner.getByTestId("git-remote-message").innerText(), { timeout: 60_000 })
      .toMatch(/main -> main/);
    const progressSeen = await owner.evaluate(
      () => (window as unknown as { gitProgressSeen: string[] }).gitProgressSeen,
    );
    expect(progressSeen.join("\n")).toMatch(/objects/i);
    await expect.poll(() => upstream.innerText(), { timeout: 15_000 }).toBe("→ origin/main ↑0 ↓0");
    expect(hostGit(bare(), "log", "-1", "--format=%s", "main").trim()).toBe("Pushed from the panel");

    // Someone else pushes; Fetch shows the branch behind, Pull brings the commit in.
    const elsewhere = mkdtempSync(path.join(tmpdir(), "coder-upstream-"));
    try {
      hostGit(elsewhere, "clone", "--quiet", bare(), ".");
      writeFileSync(path.join(elsewhere, "upstream.txt"), "from upstream\n");
      hostGit(elsewhere, "add", "upstream.txt");
      hostGit(elsewhere, "commit", "--quiet", "-m", "Upstream work");
      hostGit(elsewhere, "push", "--quiet", "origin", "main");
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    await owner.getByTestId("git-fetch").click();
    await expect.poll(() => upstream.innerText(), { timeout: 60_000 }).toBe("→ origin/main ↑0 ↓1");
    await owner.getByTestId("git-pull").click();
    await expect.poll(() => upstream.innerText(), { timeout: 60_000 }).toBe("→ origin/main ↑0 ↓0");
    await expect
      .poll(() => panel(owner).getByTestId("commit-entry").first().innerText(), { timeout: 15_000 })
      .toContain("Upstream work");

    // A new branch from the picker has no upstream; Push makes origin/topic its upstream.
    await owner.getByTestId("branch-new").click();
    await owner.getByTestId("branch-name").fill("topic");
    await owner.getByTestId("branch-create").click();
    await expect
      .poll(() => owner.getByTestId("git-branch").innerText(), { timeout: 15_000 })
      .toMatch(/^topic\s+no upstream/);
    await owner.getByTestId("git-push").click();
    await expect.poll(() => upstream.innerText(), { timeout: 60_000 }).toBe("→ origin/topic ↑0 ↓0");
    expect(hostGit(bare(), "branch", "--list", "topic").trim()).toBe("topic");
    await owner.getByTestId("branch-select").selectOption("main");
    await expect
      .poll(() => owner.getByTestId("git-branch").innerText(), { timeout: 15_000 })
      .toMatch(/^main/);
  });
});
