import { describe, expect, it } from "vitest";
import { createAndOpenWorkspace, waitForTerminal } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

describe("a workspace left alone", () => {
  const ide = useStackAndBrowser({ env: { CODER_IDLE_STOP_SECONDS: "3" } });

  it("is stopped for being idle, and opening it starts it with progress and says its processes ended", async () => {
    const page = await ide.browser.newPage();
    await createAndOpenWorkspace(page, ide.stack, "left alone");
    const terminal = page.getByTestId("terminal");
    await terminal.click();
    await page.keyboard.type("cd /tmp && echo before-the-$((6*7))-nap\n");
    await waitForTerminal(page, /before-the-42-nap/);

    // Back on the list nothing uses the workspace any more.
    await page.goto(ide.stack.url);
    const row = page.getByTestId("workspace-row").filter({ hasText: "left alone" });
    await row.and(page.locator('[data-status="stopped"]')).waitFor({ timeout: 30_000 });
    await expect.poll(() => row.getByTestId("workspace-status").innerText()).toMatch(/Stopped \(idle\)/);
    await expect.poll(() => row.innerText()).toMatch(/stopped for being idle since/);

    await row.getByTestId("workspace-open").click();
    await page.waitForURL(/\/w\//);
    await page
      .getByTestId("workspace-not-running")
      .filter({ hasText: "Starting the workspace again" })
      .waitFor({ timeout: 15_000 });
    await page.getByTestId("processes-ended").waitFor({ timeout: 30_000 });
    await terminal.and(page.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });
    await waitForTerminal(page, /before-the-42-nap[\s\S]*ended the processes of this terminal/);
    await terminal.click();
    await page.keyboard.type('echo "back in $(pwd)"\n');
    await waitForTerminal(page, /back in \/tmp/);
  });
});
