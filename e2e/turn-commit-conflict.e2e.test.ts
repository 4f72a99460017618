import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { waitForTerminal } from "./support/browser";
import { peopleOn } from "./support/people";

const panel = (page: Page) => page.getByTestId("source-control-panel");
const SETUP = "git -c user.name=Setup -c user.email=setup@example.invalid";

/** Types `commands` into the page's terminal; resolves once `marker` (computed, so not echoed) shows. */
async function inTerminal(page: Page, commands: string, marker: [string, number]) {
  const terminal = page.locator('[data-testid=terminal]:not([hidden])[data-state="open"]');
  await terminal.waitFor({ timeout: 30_000 });
  await terminal.click();
  const [word, n] = marker;
  await page.keyboard.type(`${commands}; echo ${word}-$((${n - 1}+1))\n`);
  await waitForTerminal(page, new RegExp(`${word}-${n}`), 30_000);
}

/**
 * The agent's turn as a commit from the chat, and a pull that conflicts resolved in the
 * Source Control panel's three-way view, in Chromium.
 */
describe("committing the agent's turn and resolving a conflict, in Chromium", () => {
  const made = useAgentWorkspace("turns");
  const { ownerIde, join } = peopleOn(made);
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    ({ api, workspaceId } = made());
    await api.files.write.mutate({ workspaceId, path: "app.py", content: "DEBUG = True\n" });
    await api.files.write.mutate({ workspaceId, path: "clash.txt", content: "base\n" });
  });

  it("prefills Commit the turn with the model's message, refuses an empty one, and the person's edited message becomes the commit's subject", async () => {
    const owner = await ownerIde();
    await inTerminal(owner, `git init -q -b main && git add -A && ${SETUP} commit -qm base`, ["REPO", 42]);
    const { model } = made();
    model.push(
      { toolCalls: [{ name: "read", args: { path: "app.py" } }] },
      {
        toolCalls: [
          { name: "edit", args: { path: "app.py", old_string: "DEBUG = True", new_string: "DEBUG = False" } },
        ],
      },
      { text: "Debug is off." },
      // The commit message the model proposes when the field opens.
      { text: "Turn debug off" },
    );
    await owner.getByTestId("session-new").click();
    await owner.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    await owner.getByTestId("chat-input").fill("turn debug off");
    await owner.getByTestId("chat-send").click();
    const commitButton = owner.getByTestId("turn-commit");
    await commitButton.waitFor({ timeout: 60_000 });
    await commitButton.click();
    const message = owner.getByTestId("turn-commit-message");
    await expect.poll(() => message.inputValue(), { timeout: 30_000 }).toBe("Turn debug off");

    // Nothing is committed without a message.
    await message.fill("   ");
    await owner.getByTestId("turn-commit-confirm").click();
    expect(await owner.getByTestId("turn-commit-error").innerText()).toBe("Write a commit message first.");
    expect((await api.git.log.query({ workspaceId, limit: 5 })).map((c) => c.subject)).toEqual(["base"]);

    await message.fill("Switch debug off for production");
    await owner.getByTestId("turn-commit-confirm").click();
    await expect
      .poll(() => owner.getByTestId("turn-commit-done").innerText(), { timeout: 30_000 })
      .toMatch(/^Committed [0-9a-f]{7}: Switch debug off for production$/);

    await owner.getByTestId("sidebar-git").click();
    await expect
      .poll(() => panel(owner).getByTestId("commit-entry").first().innerText(), { timeout: 15_000 })
      .toContain("Switch debug off for production");
    const [commit] = await api.git.log.query({ workspaceId, limit: 1 });
    expect(commit).toMatchObject({
      subject: "Switch debug off for production",
      authorEmail: expect.stringContaining("@"),
    });
  });

  it("shows a pulled conflict three ways; Accept theirs and Mark resolved stage the file with theirs; a viewer only reads", async () => {
    const owner = await ownerIde();
    // Upstream (a clone) and this repository both change clash.txt; the pull stops with a conflict.
    await inTerminal(
      owner,
      [
        "git clone -q /workspace /tmp/upstream",
        `echo theirs > /tmp/upstream/clash.txt && ${SETUP} -C /tmp/upstream commit -qam theirs`,
        `echo ours > clash.txt && ${SETUP} commit -qam ours`,
        `${SETUP} pull -q --no-rebase /tmp/upstream main`,
      ].join(" && "),
      ["PULL", 44],
    );
    await owner.getByTestId("sidebar-git").click();
    const conflicted = panel(owner).locator(
      '[data-testid=changes-conflicts] [data-testid=change-file][data-path="clash.txt"]',
    );
    await conflicted.waitFor({ timeout: 20_000 });

    // A viewer sees the same view with no control that changes anything.
    const { page: viewer } = await join("viewer", "Vera");
    await viewer.getByTestId("sidebar-git").click();
    const theirView = panel(viewer).locator(
      '[data-testid=changes-conflicts] [data-testid=change-file][data-path="clash.txt"]',
    );
    await theirView.waitFor({ timeout: 20_000 });
    await theirView.locator("button").first().click();
    const sides = viewer.getByTestId("conflict-sides");
    await expect.poll(() => sides.innerText(), { timeout: 15_000 }).toMatch(/ours[\s\S]*theirs/);
    for (const control of ["conflict-block-theirs", "conflict-file-theirs", "conflict-resolve"]) {
      expect(await viewer.getByTestId(control).count(), control).toBe(0);
    }
    await viewer.close();

    await conflicted.locator("button").first().click();
    const view = owner.getByTestId("conflict-view");
    await expect
      .poll(() => view.getByTestId("conflict-sides").innerText(), { timeout: 15_000 })
      .toMatch(/ours[\s\S]*theirs/);
    expect(await view.getByTestId("conflict-result").innerText()).toMatch(/<<<<<<<[\s\S]*>>>>>>>/);
    expect(await view.getByTestId("conflict-count").innerText()).toBe("1 conflict left");
    await view.getByTestId("conflict-block-theirs").click();
    await expect.poll(() => view.getByTestId("conflict-count").innerText()).toBe("0 conflicts left");
    expect(await view.getByTestId("conflict-result").innerText()).toMatch(/theirs/);
    await view.getByTestId("conflict-resolve").click();

    const staged = panel(owner).locator(
      '[data-testid=changes-staged] [data-testid=change-file][data-path="clash.txt"]',
    );
    await staged.waitFor({ timeout: 15_000 });
    expect(await conflicted.count()).toBe(0);
    expect((await api.files.read.query({ workspaceId, path: "clash.txt" })).content).toBe("theirs\n");
    const status = await api.git.status.query({ workspaceId });
    expect(status.files.find((f) => f.path === "clash.txt")).toMatchObject({
      kind: "changed",
      index: "M",
      worktree: ".",
    });
  });
});
