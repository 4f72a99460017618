import { describe, expect, it } from "vitest";
import { createAndOpenWorkspace, recordCspViolations, waitForTerminal } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

describe("the IDE in Chromium", () => {
  const ide = useStackAndBrowser();

  it("creates a workspace, edits a file made in the terminal, and keeps the terminal across a reload", async () => {
    const page = await ide.browser.newPage();
    const cspViolations = await recordCspViolations(page);
    await createAndOpenWorkspace(page, ide.stack, "e2e spine");

    const terminal = page.getByTestId("terminal");
    await terminal.click();
    await page.keyboard.type("echo hello > a.txt\n");

    // The file appears in the tree without a reload.
    const item = page.locator('[data-testid=tree-item][data-path="a.txt"]');
    await item.waitFor({ timeout: 15_000 });
    await item.click();

    const editor = page.getByTestId("editor").locator(".cm-content");
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("hello");
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    // Ends with a newline, as files do; otherwise the shell's prompt redraw hides the last line.
    await page.keyboard.type("changed in the editor\n");
    const tab = page.locator('[data-testid=editor-tab][data-path="a.txt"]');
    await expect.poll(() => tab.getAttribute("data-dirty")).toBe("true");
    await page.keyboard.press("ControlOrMeta+s");
    await expect.poll(() => tab.getAttribute("data-dirty"), { timeout: 10_000 }).toBe("false");

    await terminal.click();
    await page.keyboard.type("cat a.txt\n");
    await waitForTerminal(page, /changed in the editor/);

    await page.reload();
    await terminal.and(page.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });
    await waitForTerminal(page, /echo hello > a\.txt[\s\S]*changed in the editor/);
    // Terminal and editor, their WebSockets and the live tRPC streams all run under the service's CSP.
    expect(cspViolations).toEqual([]);
  });

  it("shows an error instead of freezing when the token is wrong", async () => {
    const page = await ide.browser.newPage();
    await page.goto(`${ide.stack.url}/login`);
    await page.getByTestId("login-token").fill("not-the-token");
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByTestId("login-error").innerText()).toMatch(/not valid/);
  });
});
