import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { inviteOnAdminPage } from "./support/invitations";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** Who the page's cookie signs in, asked from the page as its own script would. */
const whoami = (page: Page) =>
  page.evaluate(async () => {
    const answer = await (await fetch("/api/trpc/workspace.whoami")).json();
    return answer?.result?.data as { kind: string; name: string } | undefined;
  });

/**
 * An administrator invites a person by e-mail on the administration page; the person opens the
 * link in their own browser, sets a name and a password, lands in the workspace list signed in as
 * themselves, signs out, and signs in again through the login page's e-mail and password form.
 * Later the administrator makes them a reset link, and the new password replaces the old one.
 */
describe("an invited person in Chromium", () => {
  const made = useStackAndBrowser();

  it("sets a name and password through the invitation link the admin made, signs in with them, and later sets a new one through a reset link", async () => {
    const { stack, browser } = made;
    const { admin, url } = await inviteOnAdminPage(browser, stack, "grace@example.com");
    expect(url).toMatch(/\/invite\//);

    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    await expect.poll(() => page.getByTestId("invite-email").innerText()).toContain("grace@example.com");
    await page.getByTestId("invite-name").fill("Grace Hopper");
    await page.getByTestId("invite-password").fill("grace@example.com");
    await page.getByTestId("invite-repeated").fill("grace@example.com");
    await page.getByTestId("invite-submit").click();
    await expect.poll(() => page.getByTestId("invite-error").innerText()).toMatch(/e-mail address/);
    await page.getByTestId("invite-password").fill("cobol-compiler-1959");
    await page.getByTestId("invite-repeated").fill("cobol-compiler-1959");
    await page.getByTestId("invite-submit").click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByTestId("workspace-name").waitFor();
    expect(await whoami(page)).toMatchObject({ kind: "user", name: "Grace Hopper", siteRole: "member" });

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/login/);
    expect(await whoami(page)).toBeUndefined();

    await page.getByTestId("password-email").fill("Grace@Example.com");
    await page.getByTestId("password-password").fill("cobol-compiler-1959");
    await page.getByTestId("password-submit").click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByTestId("workspace-name").waitFor();
    expect(await whoami(page)).toMatchObject({ kind: "user", name: "Grace Hopper", siteRole: "member" });

    // The link was used: opening it again says so, plainly.
    await page.goto(url);
    await expect.poll(() => page.getByTestId("invite-error").innerText()).toMatch(/already used/);

    // A reset link from the administration page sets a new password; the old one stops working.
    await admin.reload();
    const row = admin.locator('[data-testid=admin-user-row][data-user="Grace Hopper"]');
    await row.getByTestId("reset-link").click();
    const resetUrl = await row.getByTestId("reset-url").inputValue();
    await page.goto(resetUrl);
    await expect.poll(() => page.getByTestId("invite-email").innerText()).toContain("grace@example.com");
    expect(await page.getByTestId("invite-name").count()).toBe(0);
    await page.getByTestId("invite-password").fill("harvard-mark-one-1944");
    await page.getByTestId("invite-repeated").fill("harvard-mark-one-1944");
    await page.getByTestId("invite-submit").click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/login/);
    await page.getByTestId("password-email").fill("grace@example.com");
    await page.getByTestId("password-password").fill("cobol-compiler-1959");
    await page.getByTestId("password-submit").click();
    await expect.poll(() => page.getByTestId("password-error").innerText()).toMatch(/do not match/);
    await page.getByTestId("password-password").fill("harvard-mark-one-1944");
    await page.getByTestId("password-submit").click();
    await page.waitForURL((u) => u.pathname === "/");
    expect(await whoami(page)).toMatchObject({ kind: "user", name: "Grace Hopper" });
  });
});
