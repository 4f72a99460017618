import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../apps/sandbox/src/collab/testing/redis-server";
import { createPostgresDatabase } from "../apps/sandbox/src/db/testing/test-database";
import {
  login,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../apps/sandbox/src/testing/harness";
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
  let env: Record<string, string>;
  const killable: ChildProcess[] = [];
  const dataDirs: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    env = { CODER_DATABASE_URL: await createPostgresDatabase(), CODER_REDIS_URL: redis.url };
    [a, browser] = await Promise.all([startStack({ env }), launchBrowser()]);
    b = await startOtherInstance(a);
    const api = trpcClient(a.url, await login(a.url, a.token));
    workspaceId = (await api.workspace.create.mutate({ name: "pair" })).id;
    await waitForStatus(api, workspaceId, "running");
    await api.files.write.mutate({ workspaceId, path: FILE, content: "line one\nline two\n" });
    shareUrl = (await api.share.create.mutate({ workspaceId, role: "editor" })).url;
  });

  afterAll(async () => {
    for (const child of killable) child.kill("SIGKILL");
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
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

  async function openLive(page: Page, file = FILE, shows = "line two"): Promise<void> {
    await page.locator(`[data-testid=tree-item][data-path="${file}"]`).click();
    const tab = page.locator(`[data-testid=editor-tab][data-path="${file}"]`);
    await expect.poll(() => tab.getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(shows);
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

  /** A guest named `name` joins through the share link addressed to the instance at `url`. */
  async function guestOn(url: string, name: string): Promise<Page> {
    const guest = await (await browser.newContext()).newPage();
    const onIt = new URL(shareUrl);
    onIt.port = new URL(url).port;
    await guest.goto(onIt.href);
    await guest.getByTestId("join-name").fill(name);
    await guest.getByTestId("join-submit").click();
    await guest.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    await guest.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    return guest;
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
    const guest = await guestOn(b.url, "Gus");
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

  it("after SIGKILL of the instance that writes the file, the other person's typing goes on and reaches the disk", async () => {
    // A third instance as its own process (to kill it), on the same database, Redis and web UI.
    const dataDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-killed-"));
    dataDirs.push(dataDir);
    const c = await spawnService({
      ...env,
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_PORT: "0",
      CODER_INSTANCE: a.instance,
      CODER_MEMORY_MB: "1024",
      CODER_WEB_UPSTREAM: a.config.webUpstream ?? "",
    });
    killable.push(c.child);
    const api = trpcClient(a.url, await login(a.url, a.token));
    // A file nobody has open yet: the first instance to open it takes its writer lease.
    const file = "kept.txt";
    await api.files.write.mutate({ workspaceId, path: file, content: "first\nsecond\n" });

    // The guest on C opens it first: C writes it back.
    const guest = await guestOn(c.url, "Kit");
    await openLive(guest, file, "second");
    const owner = await (await browser.newContext()).newPage();
    await logIn(owner, a.url, a.token);
    await owner.goto(`${a.url}/w/${workspaceId}`);
    await owner.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    await openLive(owner, file, "second");

    await typeAtEndOfLine(guest, 0, " +kit");
    await expect.poll(() => editorText(owner), { timeout: 10_000 }).toContain("first +kit");
    await expect
      .poll(async () => (await api.files.read.query({ workspaceId, path: file })).content, {
        timeout: 15_000,
      })
      .toBe("first +kit\nsecond\n");

    // Whose the document's writer lease is (its token names the instance process that holds it).
    const writer = async () => {
      const redisClient = new Redis(redis.url);
      try {
        const [key] = await redisClient.keys(`coder:collab:writer:${workspaceId}:*${file}*`);
        return key ? await redisClient.get(key) : null;
      } finally {
        redisClient.disconnect();
      }
    };
    const killedWriter = (await writer())?.split(":")[0];
    expect(killedWriter).toBeTruthy();

    c.child.kill("SIGKILL");
    await new Promise((resolve) => c.child.once("exit", resolve));

    // The owner goes on typing on A, unaware; A takes the lease over and the disk gets everything.
    await typeAtEndOfLine(owner, 1, " +owner after");
    await expect
      .poll(async () => (await api.files.read.query({ workspaceId, path: file })).content, {
        timeout: 20_000,
      })
      .toBe("first +kit\nsecond +owner after\n");
    expect(await editorText(owner)).toBe("first +kit\nsecond +owner after\n");
    // It was C's lease that lapsed: A writes now.
    expect((await writer())?.split(":")[0]).not.toBe(killedWriter);
  });
});
