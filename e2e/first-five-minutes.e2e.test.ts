// The moves a developer makes in an IDE without thinking: open a file by name, search across
// files, replace, look at an image, scroll a huge folder, run a command by name.

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { execIn, login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { logIn } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

/** A 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const BIG_FOLDER_ENTRIES = 20_000;

/** Lines of a file where line `n` says so, and line 40 says something else too. */
const numbered = Array.from({ length: 60 }, (_, i) =>
  i + 1 === 40 ? "line 40: the answer\n" : `line ${i + 1}\n`,
).join("");

describe("the IDE's first five minutes", () => {
  const ide = useStackAndBrowser();
  let api: ReturnType<typeof trpcClient>;
  let workspaceId: string;
  const read = async (path: string) => (await api.files.read.query({ workspaceId, path })).content;

  beforeAll(async () => {
    api = trpcClient(ide.stack.url, await login(ide.stack.url, ide.stack.token));
    workspaceId = (await api.workspace.create.mutate({ name: "first five minutes" })).id;
    await waitForStatus(api, workspaceId, "running");
    const write = (path: string, content: string) => api.files.write.mutate({ workspaceId, path, content });
    await write("src/deep/er/still/target-module.ts", numbered);
    await write("src/alpha.ts", "const a = 1;\nexport const marker = 'zebra-crossing';\n");
    await write("lib/beta.py", "# one\n# two\n# three\nMARKER = 'zebra-crossing'  # zebra-crossing\n");
    await write("docs/gamma.md", "# Gamma\n\nSee the zebra-crossing.\n");
    await write("docs/elsewhere.txt", "nothing striped here\n");
    const setup = await execIn(ide.stack.instance, workspaceId, [
      "sh",
      "-c",
      `echo ${PNG_BASE64} | base64 -d > pixel.png && mkdir big && cd big && seq -w 0 ${BIG_FOLDER_ENTRIES - 1} | sed 's/^/entry-/' | xargs touch`,
    ]);
    expect(setup.code).toBe(0);
  });

  async function openIde(): Promise<Page> {
    const page = await ide.browser.newPage();
    await logIn(page, ide.stack.url, ide.stack.token);
    await page.goto(`${ide.stack.url}/w/${workspaceId}`);
    await page.locator('[data-testid=tree-item][data-path="src"]').waitFor({ timeout: 30_000 });
    return page;
  }

  const activeTab = (page: Page) => page.locator('[data-testid=editor-tab][aria-selected="true"]');
  const cursorLine = (page: Page) => page.locator(".cm-lineNumbers .cm-activeLineGutter").innerText();

  it("Ctrl-P opens a file several folders deep by typing part of its name", async () => {
    const page = await openIde();
    await page.keyboard.press("ControlOrMeta+p");
    await page.getByTestId("quick-open-input").fill("tarmod");
    const first = page.getByTestId("quick-open-item").first();
    await expect
      .poll(() => first.locator("[data-path]").getAttribute("data-path"))
      .toBe("src/deep/er/still/target-module.ts");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => activeTab(page).getAttribute("data-path"))
      .toBe("src/deep/er/still/target-module.ts");
    await expect
      .poll(() => page.getByTestId("editor").locator(".cm-content").innerText())
      .toContain("line 1");
    await page.close();
  });

  it("`name:40` lands on line 40", async () => {
    const page = await openIde();
    await page.keyboard.press("ControlOrMeta+p");
    await page.getByTestId("quick-open-input").fill("target-module:40");
    await page.getByTestId("quick-open-item").first().waitFor();
    await page.keyboard.press("Enter");
    await expect.poll(() => cursorLine(page), { timeout: 15_000 }).toBe("40");
    await expect.poll(() => page.locator(".cm-activeLine").innerText()).toBe("line 40: the answer");
    await page.close();
  });

  it("Ctrl-Shift-F finds a string in three files, and clicking the second result opens it at that line", async () => {
    const page = await openIde();
    await page.keyboard.press("ControlOrMeta+Shift+f");
    await page.getByTestId("search-input").fill("zebra-crossing");
    await expect
      .poll(() => page.getByTestId("search-summary").innerText(), { timeout: 15_000 })
      .toBe("4 results in 3 files");
    const files = await page
      .getByTestId("search-result-file")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-path")));
    expect([...files].sort()).toEqual(["docs/gamma.md", "lib/beta.py", "src/alpha.ts"]);

    const second = page.getByTestId("search-result").nth(1);
    const path = await second.getAttribute("data-path");
    const line = await second.getAttribute("data-line");
    expect(await second.locator("mark").first().innerText()).toBe("zebra-crossing");
    await second.click();
    await expect.poll(() => activeTab(page).getAttribute("data-path")).toBe(path);
    await expect.poll(() => cursorLine(page)).toBe(line);
    await page.close();
  });

  it("replace all changes exactly those occurrences on disk, and Undo replace puts them back", async () => {
    const before = {
      alpha: await read("src/alpha.ts"),
      beta: await read("lib/beta.py"),
      gamma: await read("docs/gamma.md"),
    };
    const page = await openIde();
    await page.keyboard.press("ControlOrMeta+Shift+h");
    await page.getByTestId("search-input").fill("zebra-crossing");
    await page.getByTestId("search-replace-input").fill("pelican");
    await expect
      .poll(() => page.getByTestId("search-summary").innerText(), { timeout: 15_000 })
      .toBe("4 results in 3 files");
    // The preview shows each match struck out and what it becomes.
    expect(await page.getByTestId("search-result").first().locator("ins").first().innerText()).toBe(
      "pelican",
    );
    await page.getByTestId("search-replace-all").click();
    await expect
      .poll(() => page.getByTestId("replace-outcome").innerText())
      .toContain("Replaced 4 matches in 3 files.");

    expect(await read("src/alpha.ts")).toBe(before.alpha.replaceAll("zebra-crossing", "pelican"));
    expect(await read("lib/beta.py")).toBe("# one\n# two\n# three\nMARKER = 'pelican'  # pelican\n");
    expect(await read("docs/gamma.md")).toBe("# Gamma\n\nSee the pelican.\n");
    expect(await read("docs/elsewhere.txt")).toBe("nothing striped here\n");
    // The search runs again: nothing is left to find.
    await expect.poll(() => page.getByTestId("search-summary").innerText()).toBe("0 results in 0 files");

    await page.getByTestId("search-undo-replace").click();
    await expect
      .poll(() => page.getByTestId("replace-outcome").innerText())
      .toContain("The replace was undone.");
    expect({
      alpha: await read("src/alpha.ts"),
      beta: await read("lib/beta.py"),
      gamma: await read("docs/gamma.md"),
    }).toEqual(before);
    await page.close();
  });

  it("shows an image file as an image", async () => {
    const page = await openIde();
    await page.locator('[data-testid=tree-item][data-path="pixel.png"]').click();
    const image = page.getByTestId("image-viewer").locator("img");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await page.close();
  });

  it("a folder of 20 000 entries scrolls to its last entry", async () => {
    const page = await openIde();
    await page.locator('[data-testid=tree-item][data-path="big"]').click();
    await page.locator('[data-testid=tree-item][data-path="big/entry-00000"]').waitFor({ timeout: 30_000 });
    const last = page.locator(`[data-testid=tree-item][data-path="big/entry-${BIG_FOLDER_ENTRIES - 1}"]`);
    const tree = page.getByTestId("file-tree").getByRole("tree");
    await expect
      .poll(
        async () => {
          await tree.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          return last.isVisible();
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    // Only what is on screen is drawn, not twenty thousand rows.
    expect(await page.getByTestId("tree-item").count()).toBeLessThan(500);
    expect(await page.getByText("Too many entries").count()).toBe(0);
    await page.close();
  });

  it("Ctrl-Shift-P lists the IDE's actions with their shortcuts and runs the one picked", async () => {
    const page = await openIde();
    await page.getByTestId("terminal-tab").first().waitFor({ timeout: 30_000 });
    const terminals = await page.getByTestId("terminal-tab").count();
    await page.keyboard.press("ControlOrMeta+Shift+p");
    const palette = page.getByTestId("command-palette");
    await expect.poll(() => palette.innerText()).toMatch(/Go to file…\s*Ctrl\+P/);
    await page.getByTestId("command-palette-input").fill("new term");
    await expect
      .poll(() => page.getByTestId("command-palette-item").first().innerText())
      .toMatch(/^New terminal/);
    await page.keyboard.press("Enter");
    // The service names the new terminal: the tab comes with its answer.
    await expect
      .poll(() => page.getByTestId("terminal-tab").count(), { timeout: 15_000 })
      .toBe(terminals + 1);
    await page.close();
  });

  it("previews Markdown beside its text without running the HTML in it", async () => {
    await api.files.write.mutate({
      workspaceId,
      path: "docs/README.md",
      content:
        '# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror="window.pwned=1">\n<script>window.pwned=1</script>\n\n![pixel](../pixel.png)\n',
    });
    const page = await openIde();
    await page.keyboard.press("ControlOrMeta+p");
    await page.getByTestId("quick-open-input").fill("docs/README.md");
    await page.getByTestId("quick-open-item").first().waitFor();
    await page.keyboard.press("Enter");
    const preview = page.getByTestId("file-preview");
    await expect.poll(() => preview.locator("h1").innerText(), { timeout: 15_000 }).toBe("Title");
    expect(await preview.locator("td").allInnerTexts()).toEqual(["1", "2"]);
    await expect
      .poll(() => preview.locator('img[alt="pixel"]').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1);
    expect(await preview.locator("script, [onerror]").count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    await page.close();
  });

  it("maximises the terminal and gives the editor its room back", async () => {
    const page = await openIde();
    const editorHeight = () =>
      page.getByTestId("editor").evaluate((el) => el.parentElement?.getBoundingClientRect().height ?? 0);
    await page.getByTestId("terminal-maximise").click();
    await expect.poll(editorHeight).toBe(0);
    await page.getByTestId("terminal-maximise").click();
    await expect.poll(editorHeight).toBeGreaterThan(50);
    await page.close();
  });

  it("loads every page without a missing favicon", async () => {
    const page = await ide.browser.newPage();
    const missing: string[] = [];
    page.on("response", (res) => {
      if (res.status() === 404) missing.push(res.url());
    });
    await logIn(page, ide.stack.url, ide.stack.token);
    await page.goto(`${ide.stack.url}/w/${workspaceId}`);
    await page.locator('[data-testid=tree-item][data-path="src"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toMatch(/^\/icon\.svg/);
    expect(missing).toEqual([]);
    await page.close();
  });

  it("starting a conversation and sending nothing leaves no empty session behind", async () => {
    const page = await openIde();
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByTestId("session-new").click();
    await page.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    await page.reload();
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    expect(await api.session.list.query({ workspaceId })).toEqual([]);
    await page.close();
  });
});
