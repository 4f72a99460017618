import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../apps/sandbox/src/collab/testing/redis-server";
import { createPostgresDatabase } from "../apps/sandbox/src/db/testing/test-database";
import { login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { launchBrowser, logIn } from "./support/browser";
import { type OtherInstance, type Stack, startOtherInstance, startStack } from "./support/stack";

const FILE = "pair.txt";

describe("two people in two browsers on two service instances, one file", () => {
  let redis: RedisServer;
  let a: Stack;
  let b: OtherInstance;
  let browser: Browser;
  let workspaceId: string;
  let shareUrl: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = { CODER_DATABASE_URL: await createPostgresDatabase(), CODER_REDIS_URL: redis.url };
    [a, browser] = await Promise.all([startStack({ env }), launchBrowser()]);
    b = await startOtherInstance(a);
    const api = trpcClient(a.url, await login(a.url, a.token));
    workspaceId = (await api.workspace.create.mutate({ name: "pair" })).id;
    await waitForStatus(api, workspaceId, "running");
    await api.files.write.mutate({ workspaceId, path: FILE, content: "line one\nline two\n" });
    shareUrl = (await api.share.create.mutate({ workspaceId, role: "editor" })).url;
  });

  afterAll(async () => {
    await browser?.close();
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  /** The shown file's text as CodeMirror draws it, without the other people's carets. */
  const editorText = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll("[data-testid=editor] .cm-line"))
        .map((line) => {
          const copy = line.cloneNode(true) as Element;
          for (const caret of copy.querySelectorAll(".cm-ySelectionCaret")) caret.remove();
          return (copy.textContent ?? "").replaceAll("\u2060", "");
        })
        .join("\n"),
    );
  /** The names on the other people's carets in the editor. */
  const caretNames = (page: Page) => page.getByTestId("editor").locator(".cm-ySelectionInfo").allInnerTexts();

  async function openLive(page: Page): Promise<void> {
    await page.locator(`[data-testid=tree-item][data-path="${FILE}"]`).click();
    const tab = page.locator(`[data-testid=editor-tab][data-path="${FILE}"]`);
    await expect.poll(() => tab.getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("line two");
  }

  /** Milliseconds until `check` holds, looked at every 20 ms (fails after 10 s). */
  async function timeUntil(check: () => Promise<boolean>, what: string): Promise<number> {
    const started = performance.now();
    while (!(await check())) {
      if (performance.now() - started > 10_000) throw new Error(`never saw ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return performance.now() - started;
  }

  async function typeAtEndOfLine(page: Page, n: number, text: string): Promise<void> {
    await page.getByTestId("editor").locator(".cm-line").nth(n).click();
    await page.keyboard.press("End");
    await page.keyboard.type(text, { delay: 20 });
  }

  it("typing and the cursors cross between the instances within a second", async () => {
    const owner = await (await browser.newContext()).newPage();
    await logIn(owner, a.url, a.token);
    await owner.goto(`${a.url}/w/${workspaceId}`);
    await owner.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await openLive(owner);

    // The guest joins through instance B (the share link, addressed to B).
    const guest = await (await browser.newContext()).newPage();
    const onB = new URL(shareUrl);
    onB.port = new URL(b.url).port;
    await guest.goto(onB.href);
    await guest.getByTestId("join-name").fill("Gus");
    await guest.getByTestId("join-submit").click();
    await guest.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    await guest.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await openLive(guest);
    // The file's text once on both: one history across the instances.
    expect(await editorText(guest)).toBe(await editorText(owner));

    await typeAtEndOfLine(owner, 0, " +owner");
    const toGuest = await timeUntil(
      async () => (await editorText(guest)).includes("line one +owner"),
      "A's typing on B",
    );
    await typeAtEndOfLine(guest, 1, " +guest");
    const toOwner = await timeUntil(
      async () => (await editorText(owner)).includes("line two +guest"),
      "B's typing on A",
    );
    const guestCaret = await timeUntil(
      async () => (await caretNames(owner)).some((n) => n.includes("Gus")),
      "Gus's caret on A",
    );
    const ownerCaret = await timeUntil(
      async () => (await caretNames(guest)).length > 0,
      "the owner's caret on B",
    );
    console.log(
      `typing A → B ${toGuest.toFixed(0)} ms, B → A ${toOwner.toFixed(0)} ms; carets ${guestCaret.toFixed(0)} / ${ownerCaret.toFixed(0)} ms`,
    );
    expect(toGuest).toBeLessThan(1000);
    expect(toOwner).toBeLessThan(1000);
    expect(guestCaret).toBeLessThan(1000);
    expect(ownerCaret).toBeLessThan(1000);
    const api = trpcClient(a.url, await login(a.url, a.token));
    await expect
      .poll(async () => (await api.files.read.query({ workspaceId, path: FILE })).content, {
        timeout: 15_000,
      })
      .toBe("line one +owner\nline two +guest\n");
  });
});
