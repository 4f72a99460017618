import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForStatus } from "../apps/sandbox/src/testing/harness";
import { type TestUser, TestUsers } from "../apps/sandbox/src/testing/test-users";
import { useStackAndBrowser } from "./support/stack-and-browser";

/**
 * Two people with accounts, each in their own Chromium context: Bob shares his workspace with Vera
 * by her e-mail address from the Share dialog; she finds it in her list with only what an editor
 * may do there, opens a file, and sees the ended notice within a second of Bob taking it back.
 */
describe("sharing a workspace with a person by name, in Chromium", () => {
  const env = useStackAndBrowser();
  let users: TestUsers;
  let bob: TestUser;
  let vera: TestUser;
  let workspaceId: string;

  beforeAll(async () => {
    const { stack } = env;
    users = await TestUsers.open({ url: stack.url, ...stack.config });
    bob = await users.create("Bob");
    vera = await users.create("Vera");
    workspaceId = (await bob.api.workspace.create.mutate({ name: "bobs-project" })).id;
    await waitForStatus(bob.api, workspaceId, "running");
    await bob.api.files.write.mutate({ workspaceId, path: "notes.txt", content: "first line\n" });
  });
  afterAll(async () => {
    await users?.close();
  });

  /** A page signed in as `who` through their session cookie, on the workspace list. */
  async function signedIn(who: TestUser): Promise<Page> {
    const context = await env.browser.newContext();
    const [name, value] = who.cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: env.stack.url }]);
    const page = await context.newPage();
    await page.goto(env.stack.url);
    return page;
  }

  it("a person the owner shares with sees it with their role's controls only, and their open editor says so within a second of the revoke", async () => {
    const owner = await signedIn(bob);
    await owner.getByTestId("workspace-row").getByTestId("workspace-open").click();
    await owner.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    await owner.getByTestId("share-button").click();
    await owner.getByTestId("share-person-email").fill(vera.email);
    await owner.getByTestId("share-person-role").selectOption("editor");
    await owner.getByTestId("share-person-add").click();
    await expect
      .poll(() => owner.getByTestId("share-person").innerText(), { timeout: 10_000 })
      .toContain(`Vera <${vera.email}>`);

    // Vera's list: Bob's workspace, shared by him, with Open but no Start, Stop or Delete.
    const page = await signedIn(vera);
    const row = page.getByTestId("workspace-row").filter({ hasText: "bobs-project" });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute("data-role")).toBe("editor");
    expect(await row.getByTestId("workspace-shared-by").innerText()).toContain("shared by Bob");
    for (const control of ["workspace-start", "workspace-stop", "workspace-delete"]) {
      expect(await row.getByTestId(control).count(), control).toBe(0);
    }
    // Making workspaces of her own is every user's.
    await page.getByTestId("workspace-name").waitFor();

    await row.getByTestId("workspace-open").click();
    await page.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    await page.locator('[data-testid=tree-item][data-path="notes.txt"]').click();
    const content = page.getByTestId("editor").locator(".cm-content");
    await expect.poll(() => content.innerText(), { timeout: 15_000 }).toContain("first line");
    // An editor is not offered the owner's Share button.
    expect(await page.getByTestId("share-button").count()).toBe(0);
    await expect
      .poll(async () => (await bob.api.share.people.query({ workspaceId }))[0]?.openConnections ?? 0, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);

    const notice = page.getByTestId("access-ended");
    const started = Date.now();
    await owner.getByTestId("share-person-revoke").click();
    await notice.waitFor({ timeout: 5_000 });
    const ms = Date.now() - started;
    expect(await notice.innerText()).toContain("The owner stopped sharing this workspace with you.");
    expect(ms).toBeLessThan(1_000);

    // Back on her list, the workspace is gone.
    await page.getByTestId("access-ended-back").click();
    await page.getByTestId("workspace-name").waitFor();
    expect(await page.getByTestId("workspace-row").count()).toBe(0);
  });
});
