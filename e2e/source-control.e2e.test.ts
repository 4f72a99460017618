import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { waitForTerminal } from "./support/browser";
import { peopleOn } from "./support/people";

/** Forty numbered lines; `change` replaces some of them. */
const lines = (change: Record<number, string> = {}) =>
  `${Array.from({ length: 40 }, (_, i) => change[i] ?? `line ${i}`).join("\n")}\n`;

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
  });

  const panel = (page: Page) => page.getByTestId("source-control-panel");
  const fileIn = (page: Page, group: "staged" | "changes", path: string) =>
    panel(page).locator(`[data-testid=changes-${group}] [data-testid=change-file][data-path="${path}"]`);
  const hunks = (page: Page) => page.getByTestId("diff-view").getByTestId("diff-hunk");

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

    // The workspace has no network and the repository no remote: the panel says so, and a push
    // shows git's own message under the buttons.
    expect(await owner.getByTestId("git-no-egress").innerText()).toMatch(/no network access/);
    await owner.getByTestId("git-push").click();
    await expect
      .poll(() => owner.getByTestId("git-remote-error").innerText(), { timeout: 20_000 })
      .toMatch(/^fatal: /);

    // What git itself says: the commit has the first hunk, the work tree still the second.
    const [commit] = await api.git.log.query({ workspaceId, limit: 1 });
    expect(commit?.subject).toBe("Stage one hunk from the panel");
    const left = await api.git.diff.query({ workspaceId, path: "notes.txt" });
    expect(left.patch).toContain("+line 30 left for later");
    expect(left.patch).not.toContain("line 2 staged from the diff");
  });

  it("shows a viewer guest the changes and the diff live, without any control that changes something", async () => {
    const { page: viewer } = await join("viewer", "Vera");
    await viewer.getByTestId("sidebar-git").click();
    await fileIn(viewer, "changes", "notes.txt").waitFor({ timeout: 20_000 });
    await expect
      .poll(() => panel(viewer).getByTestId("commit-entry").first().innerText(), { timeout: 15_000 })
      .toContain("Stage one hunk from the panel");
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
});
