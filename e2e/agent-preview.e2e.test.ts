import { expect, it } from "vitest";
import type { AttachedProcess } from "../apps/sandbox/src/driver/workspace-driver";
import { instanceDriver } from "../apps/sandbox/src/testing/harness";
import { useAgentWorkspace } from "./support/agent-workspace";
import { logIn } from "./support/browser";

const APP = `
  require("http").createServer((req, res) => {
    res.setHeader("content-type", "text/html");
    res.end('<title>Plant shop</title><h1 style="color:green">Fresh ferns for sale</h1>');
  }).listen(3000, "127.0.0.1", () => console.log("listening"));`;

const made = useAgentWorkspace("e2e preview");

it("shows in the chat the screenshot the agent's preview took, above what the page said", async () => {
  const { stack, browser, model, workspaceId } = made();
  const app: AttachedProcess = await instanceDriver(stack.instance).exec(workspaceId, ["node", "-e", APP]);
  try {
    await new Promise<void>((resolve) =>
      app.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve()),
    );
    const page = await browser.newPage();
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByTestId("session-new").click();
    await page.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();

    model.push(
      { toolCalls: [{ name: "preview", args: { port: 3000, screenshot: true } }] },
      { text: "Looked." },
    );
    await page.getByTestId("chat-input").fill("Look at the shop");
    await page.getByTestId("chat-send").click();

    const card = page.locator('[data-testid=tool-card][data-tool="preview"]').last();
    await card.and(page.locator("[data-status=completed]")).waitFor({ timeout: 90_000 });
    const screenshot = card.getByTestId("tool-screenshot");
    // Decoded by the browser: the PNG of the page at the browser job's viewport.
    await expect
      .poll(() => screenshot.evaluate((img: HTMLImageElement) => `${img.naturalWidth}×${img.naturalHeight}`))
      .toBe("1280×800");
    expect(await card.innerText()).toContain("Title: Plant shop");
    expect(await card.innerText()).toContain("Fresh ferns for sale");
    await page.close();
  } finally {
    await app.close();
  }
});
