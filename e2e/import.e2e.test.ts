import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tarGz } from "../apps/sandbox/src/imports/testing/archives";
import {
  type GitServer,
  makeRepository,
  startGitServer,
} from "../apps/sandbox/src/imports/testing/git-server";
import { execIn } from "../apps/sandbox/src/testing/harness";
import { logIn } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** Waits for the row of `name` to be running and opens its IDE; returns the workspace id. */
async function openWhenRunning(page: Page, name: string): Promise<string> {
  const row = page.getByTestId("workspace-row").filter({ hasText: name });
  await row.and(page.locator('[data-status="running"]')).waitFor({ timeout: 90_000 });
  const id = (await row.getAttribute("data-workspace-id")) ?? "";
  await row.getByTestId("workspace-open").click();
  await page.waitForURL(/\/w\//);
  return id;
}

describe("bringing a repository in and taking the work out, in Chromium", () => {
  let server: GitServer;
  beforeAll(async () => {
    // A few MB served slowly: the clone lasts long enough to watch its progress bar.
    server = await startGitServer((root) =>
      makeRepository(root, "sizable", { "blob.bin": randomBytes(3 << 20) }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  // Read when the stack starts, after the git server above is up (hooks run in order).
  const ide = useStackAndBrowser({
    env: {
      get CODER_EGRESS_ALLOW() {
        return server.allow;
      },
    },
  });

  it("clones from a Git URL with a progress bar, then downloads the workspace as a .tar.gz", async () => {
    const page = await ide.browser.newPage();
    await logIn(page, ide.stack.url, ide.stack.token);
    await page.getByTestId("workspace-name").fill("from git");
    await page.getByTestId("source-git").click();
    await page.getByTestId("git-url").fill(`${server.url}/slow/sizable.git`);
    await page.getByTestId("workspace-create").click();

    const row = page.getByTestId("workspace-row").filter({ hasText: "from git" });
    const receiving = row.locator('[data-testid="import-progress"][data-phase="receiving"]');
    await receiving.waitFor({ timeout: 60_000 });
    await expect
      .poll(async () => Number(await receiving.getAttribute("aria-valuenow")), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => row.getByTestId("import-origin").innerText())
      .toBe(`from ${server.url}/slow/sizable.git`);

    await openWhenRunning(page, "from git");
    await page.locator('[data-testid=tree-item][data-path="blob.bin"]').waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("workspace-download").click(),
    ]);
    expect(download.suggestedFilename()).toBe("from-git.tar.gz");
    const archive = gunzipSync(readFileSync((await download.path()) ?? ""));
    expect(archive.includes("./README.md")).toBe(true);
    expect(archive.includes("./blob.bin")).toBe(true);
  });

  it("creates a workspace from an uploaded archive, and files dropped on a folder of the tree land in it", async () => {
    const page = await ide.browser.newPage();
    await logIn(page, ide.stack.url, ide.stack.token);
    await page.getByTestId("workspace-name").fill("from upload");
    await page.getByTestId("source-upload").click();
    await page.getByTestId("upload-file").setInputFiles({
      name: "project.tar.gz",
      mimeType: "application/gzip",
      buffer: tarGz([
        { name: "src/", type: "dir" },
        { name: "src/app.py", content: "print('app')\n" },
      ]),
    });
    await page.getByTestId("workspace-create").click();
    const id = await openWhenRunning(page, "from upload");

    const folder = page.locator('[data-testid=tree-item][data-path="src"]');
    await folder.waitFor({ timeout: 15_000 });
    const files = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(["dropped\n"], "dropped.txt", { type: "text/plain" }));
      return data;
    });
    await folder.dispatchEvent("dragover", { dataTransfer: files });
    await folder.dispatchEvent("drop", { dataTransfer: files });
    await expect
      .poll(async () => (await execIn(ide.stack.instance, id, ["cat", "src/dropped.txt"])).out, {
        timeout: 30_000,
      })
      .toBe("dropped\n");
  });
});
