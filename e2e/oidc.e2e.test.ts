import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startOidcProvider, type TestOidcProvider } from "../apps/sandbox/src/testing/oidc-provider";
import { launchBrowser } from "./support/browser";
import { freePort, type Stack, startStack } from "./support/stack";

describe("signing in with an OpenID provider in Chromium", () => {
  let provider: TestOidcProvider;
  let stack: Stack;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    // The provider only sends people back to the callback it knows: the service's port comes first.
    const port = await freePort();
    provider = await startOidcProvider([`http://127.0.0.1:${port}/auth/oidc/callback`]);
    [stack, browser] = await Promise.all([
      startStack({
        env: { CODER_PORT: String(port), CODER_OIDC_ALLOWED_DOMAINS: "example.com", ...provider.env },
      }),
      launchBrowser(),
    ]);
    // Discovery runs beside the start: the login page offers the way once it is done.
    await vi.waitFor(
      async () => {
        const methods = await (await fetch(`${stack.url}/auth/methods`)).json();
        if (methods.oidc?.available !== true) throw new Error("discovery has not finished");
      },
      { timeout: 15_000, interval: 100 },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await provider?.close();
  });

  it("a person signs in through the provider's login form and lands in the IDE under their own name", async () => {
    const page = await browser.newPage();
    await page.goto(stack.url);
    await page.waitForURL(/\/login/);
    await page.getByTestId("oidc-sign-in").filter({ hasText: "Sign in with Test Provider" }).click();
    // The provider's own login page, then its consent page.
    await page.locator('input[name="login"]').fill("ada");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`${stack.url}/`);

    await page.getByTestId("workspace-name").fill("ada's workspace");
    await page.getByTestId("workspace-create").click();
    const row = page.getByTestId("workspace-row").filter({ hasText: "ada's workspace" });
    await row.and(page.locator('[data-status="running"]')).waitFor({ timeout: 60_000 });
    await row.getByTestId("workspace-open").click();
    await page.waitForURL(/\/w\//);
    // The IDE shows who is in the workspace: her, under the name her provider gave.
    await page
      .locator('[data-testid=presence-person][data-name="Ada Lovelace"]')
      .waitFor({ timeout: 20_000 });
  });

  it("a person whose address is of another domain is sent back to the login page with a plain refusal", async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/login`);
    await page.getByTestId("oidc-sign-in").click();
    await page.locator('input[name="login"]').fill("foreign");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(/\/login\?oidc=domain/);
    await expect
      .poll(() => page.getByTestId("oidc-refused").innerText())
      .toMatch(/not of a domain allowed here/);
  });
});
