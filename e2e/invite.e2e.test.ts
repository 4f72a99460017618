import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { login, trpcClient } from "../apps/sandbox/src/testing/harness";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** Who the page's cookie signs in, asked from the page as its own script would. */
const whoami = (page: Page) =>
  page.evaluate(async () => {
    const answer = await (await fetch("/api/trpc/workspace.whoami")).json();
    return answer?.result?.data as { kind: string; name: string } | undefined;
  });

/**
 * An administrator invites a person by e-mail; the person opens the link in their own browser,
 * sets a name and a password, lands in the workspace list signed in as themselves, signs out, and
 * signs in again through the login page's e-mail and password form.
 */
describe("an invited person in Chromium", () => {
  const made = useStackAndBrowser();

  it("sets a name and password through the invitation link and later signs in with them", async () => {
    const { stack, browser } = made;
    const admin = trpcClient(stack.url, await login(stack.url, stack.token));
    const { url } = await admin.user.invite.mutate({ email: "grace@example.com", role: "member" });

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
  });
});
