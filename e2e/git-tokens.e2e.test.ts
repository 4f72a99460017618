import { describe, expect, it } from "vitest";
import { execIn, login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { logIn } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

const TOKEN = "tok-e2e-3f9a1c77d2";
const HOST = "git.example.test:8443";

/** The person's git tokens page and the Source Control panel's menu that binds one to a workspace. */
describe("git tokens in Chromium", () => {
  const run = useStackAndBrowser();

  it("adds a token that never shows again, binds it to a workspace after a warning, lists where, and deletes it", async () => {
    const { stack, browser } = run;
    const page = await (await browser.newContext()).newPage();
    await logIn(page, stack.url, stack.token);
    await page.getByTestId("git-tokens-link").click();
    await page.waitForURL(/\/settings\/git$/);

    // A host is checked as the service checks it: a URL is not a host.
    await page.getByTestId("git-token-host-input").fill("https://git.example.test/team");
    await page.getByTestId("git-token-token-input").fill(TOKEN);
    await page.getByTestId("git-token-add").click();
    await expect
      .poll(() => page.getByTestId("git-token-problem").innerText())
      .toMatch(/is not a host name\[:port\]/);
    expect(await page.getByTestId("git-token-row").count()).toBe(0);

    // What only the service checks is said at the form too, once (no toast besides).
    await page.getByTestId("git-token-host-input").fill(HOST);
    await page.getByTestId("git-token-token-input").fill("t".repeat(4097));
    await page.getByTestId("git-token-add").click();
    await expect
      .poll(() => page.getByTestId("git-token-problem").innerText())
      .toContain("a token is at most 4096 characters");
    expect(await page.getByTestId("error-toast").count()).toBe(0);
    expect(await page.getByTestId("git-token-row").count()).toBe(0);

    await page.getByTestId("git-token-token-input").fill(TOKEN);
    await page.getByTestId("git-token-host-input").fill(HOST);
    await page.getByTestId("git-token-username-input").fill("ada");
    await page.getByTestId("git-token-add").click();
    const row = page.getByTestId("git-token-row");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId("git-token-host").innerText()).toBe(HOST);
    expect(await row.innerText()).toContain("ada");
    // Gone from the form, and nowhere in the page, nor after a reload.
    expect(await page.getByTestId("git-token-token-input").inputValue()).toBe("");
    expect(await page.content()).not.toContain(TOKEN);
    await page.reload();
    await row.first().waitFor();
    expect(await page.content()).not.toContain(TOKEN);

    // The owner binds it in the workspace's Source Control menu, warned what that means.
    const api = trpcClient(stack.url, await login(stack.url, stack.token));
    const { id: workspaceId } = await api.workspace.create.mutate({ name: "bound" });
    await waitForStatus(api, workspaceId, "running");
    expect((await execIn(stack.instance, workspaceId, ["git", "-C", "/workspace", "init", "-q"])).code).toBe(
      0,
    );
    await page.goto(`${stack.url}/w/${workspaceId}`);
    await page.getByTestId("sidebar-git").click();
    await page.getByTestId("git-bindings").locator("summary").click();
    let warning = "";
    page.once("dialog", (dialog) => {
      warning = dialog.message();
      void dialog.accept();
    });
    await page.getByTestId("git-bind").click();
    await expect.poll(() => page.getByTestId("git-binding").innerText()).toContain(HOST);
    expect(warning).toMatch(/every push by the agent still asks you first/i);
    expect(warning).toMatch(/any process in the workspace can use the token/i);

    await page.goto(`${stack.url}/settings/git`);
    await expect.poll(() => row.innerText()).toContain("bound");

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByTestId("git-token-delete").click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await api.gitCredential.list.query()).toEqual([]);
    expect((await api.gitCredential.bindings.query({ workspaceId })).hosts).toEqual([]);
    await page.close();
  });
});
