import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { Accounts } from "../apps/sandbox/src/auth/accounts";
import { SESSION_COOKIE } from "../apps/sandbox/src/auth/http-auth";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { logIn } from "./support/browser";
import { inviteOnAdminPage } from "./support/invitations";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** An admin and a member, each in their own browser: the admin page is the admin's alone, and suspending the member ends their open IDE. */
describe("the administration page, in Chromium", () => {
  const run = useStackAndBrowser();

  /** A member signed in (the session made as a sign-in would make it) in a browser context of their own. */
  async function memberPage(name = "Mia"): Promise<{ page: Page; cookie: string; userId: string }> {
    const { stack, browser } = run;
    const user = await new Accounts(stack.service.db).create({
      email: `${name.toLowerCase()}@example.com`,
      displayName: name,
      siteRole: "member",
    });
    const { cookie } = await stack.service.auth.createSession(user.id);
    const context = await browser.newContext();
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: stack.url }]);
    return { page: await context.newPage(), cookie: `${SESSION_COOKIE}=${cookie}`, userId: user.id };
  }

  it("an admin suspends a member whose IDE is open: the member's page shows their access ended; a member never sees the Admin link", async () => {
    const { stack, browser } = run;
    const member = await memberPage();
    const api = trpcClient(stack.url, member.cookie);
    const { id } = await api.workspace.create.mutate({ name: "mias" });
    await waitForStatus(api, id, "running");

    await member.page.goto(stack.url);
    await member.page.getByTestId("workspace-row").first().waitFor();
    expect(await member.page.getByTestId("admin-link").count()).toBe(0);
    await member.page.goto(`${stack.url}/w/${id}`);
    await member.page.locator('[data-testid=terminal][data-state="open"]').waitFor({ timeout: 30_000 });
    expect(await member.page.getByTestId("admin-link").count()).toBe(0);
    // The page itself is no way in: the service refuses the member its data.
    await member.page.goto(`${stack.url}/admin`);
    await member.page.getByRole("alert").filter({ hasText: "only an administrator may do that" }).waitFor();
    await member.page.goto(`${stack.url}/w/${id}`);
    await member.page.locator('[data-testid=terminal][data-state="open"]').waitFor({ timeout: 30_000 });

    const admin = await (await browser.newContext()).newPage();
    await logIn(admin, stack.url, stack.token);
    await admin.getByTestId("admin-link").click();
    await admin.waitForURL(/\/admin$/);
    const row = admin.locator('[data-testid=admin-user-row][data-user="Mia"]');
    await row.getByTestId("suspend-toggle").click();
    await expect.poll(() => row.innerText()).toContain("suspended");

    // Their terminal says they are out, or the page has already sent them to the login.
    await expect
      .poll(
        async () =>
          member.page.url().includes("/login") ||
          (await member.page
            .getByTestId("terminal-revoked")
            .isVisible()
            .catch(() => false)),
        { timeout: 10_000 },
      )
      .toBe(true);
    // And the workspaces they had running stop.
    await waitForStatus(trpcClient(stack.url, await login(stack.url, stack.token)), id, "stopped");
  });

  it("a person joining through an invite appears on the admin page without a reload", async () => {
    const { stack, browser } = run;
    const { admin, url } = await inviteOnAdminPage(browser, stack, "ada@example.com");
    // Gone with the page should it reload.
    await admin.evaluate(() => Object.assign(window, { sameAdminPage: true }));

    const person = await (await browser.newContext()).newPage();
    await person.goto(url);
    await person.getByTestId("invite-name").fill("Ada Lovelace");
    await person.getByTestId("invite-password").fill("analytical-engine-1843");
    await person.getByTestId("invite-repeated").fill("analytical-engine-1843");
    await person.getByTestId("invite-submit").click();
    await person.waitForURL((u) => u.pathname === "/");

    const row = admin.locator('[data-testid=admin-user-row][data-user="Ada Lovelace"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.innerText()).toContain("ada@example.com");
    expect(await admin.evaluate(() => "sameAdminPage" in window)).toBe(true);
  });

  it("a member at the workspace limit an admin set is told so beside Create workspace, and only there", async () => {
    const { stack } = run;
    const member = await memberPage("Noa");
    const admin = trpcClient(stack.url, await login(stack.url, stack.token));
    await admin.user.update.mutate({ userId: member.userId, limits: { workspaces: 0 } });

    await member.page.goto(stack.url);
    await member.page.getByTestId("workspace-name").fill("one too many");
    await member.page.getByTestId("workspace-create").click();
    await expect
      .poll(() => member.page.getByTestId("workspace-create-problem").innerText())
      .toBe("you have 0 of 0 workspaces; delete one to create another");
    expect(await member.page.getByTestId("error-toast").count()).toBe(0);
    expect(await member.page.getByTestId("workspace-row").count()).toBe(0);
  });
});
