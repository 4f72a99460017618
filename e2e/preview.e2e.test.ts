import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TRPCClient } from "@trpc/client";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceDriver, login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { launchBrowser } from "./support/browser";
import { peopleOn } from "./support/people";
import { type Stack, startStack } from "./support/stack";

/**
 * The dev server the test runs in the workspace. Vite 6, not the Vite 8 in this repository's
 * node_modules: the workspace image's Node is Debian's 18, and Vite 7 and later need Node 20.19.
 */
const VITE = "vite@6.4.6";
const VITE_PORT = 5173;

/** A page whose text comes from message.txt, in a module that takes hot updates itself. */
const APP_FILES: Record<string, string> = {
  "index.html":
    '<!doctype html>\n<title>vite app</title>\n<h1 id="greeting"></h1>\n<script type="module" src="/main.js"></script>\n',
  "main.js":
    'import message from "./message.txt?raw";\n\ndocument.querySelector("#greeting").textContent = message.trim();\nimport.meta.hot?.accept();\n',
  "message.txt": "hello from vite\n",
  "package.json": '{ "name": "vite-app", "private": true, "type": "module" }\n',
};

/**
 * The app and its node_modules, made on this machine: the workspace has no network, so the test
 * brings Vite from the npm registry as a person would bring a tarball.
 */
async function makeViteApp(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-e2e-vite-"));
  for (const [name, text] of Object.entries(APP_FILES)) writeFileSync(path.join(dir, name), text);
  await promisify(execFile)(
    "npm",
    [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefer-offline",
      "--prefix",
      dir,
      VITE,
    ],
    { cwd: dir },
  );
  return dir;
}

/** Unpacks `dir` into the workspace at `target` (as coder, through tar on the exec's stdin). */
async function copyIntoWorkspace(instance: string, workspaceId: string, dir: string, target: string) {
  const proc = await instanceDriver(instance).exec(workspaceId, [
    "sh",
    "-c",
    `mkdir -p '${target}' && tar -xzf - -C '${target}'`,
  ]);
  const output: Buffer[] = [];
  proc.stdout.on("data", (c: Buffer) => output.push(c));
  proc.stderr.on("data", (c: Buffer) => output.push(c));
  const tar = spawn("tar", ["-cz", "-C", dir, "."], { stdio: ["ignore", "pipe", "inherit"] });
  tar.stdout.pipe(proc.stdin);
  expect(await proc.exited, Buffer.concat(output).toString()).toBe(0);
}

/** The IDE is drawn: its side bar shows. */
const IDE_READY = "[data-testid=sidebar-ports]";
const SHOWN_TERMINAL = '[data-testid=terminal]:not([hidden])[data-state="open"]';
const PORT_ROW = `[data-testid=port-row][data-port="${VITE_PORT}"]`;

describe("previews of a workspace's web app, in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;
  let appDir: string;
  let owner: Page;
  const { ownerIde, join } = peopleOn(() => ({ stack, browser, api, workspaceId }), IDE_READY);

  beforeAll(async () => {
    [stack, browser, appDir] = await Promise.all([startStack(), launchBrowser(), makeViteApp()]);
    api = trpcClient(stack.url, await login(stack.url, stack.token));
    workspaceId = (await api.workspace.create.mutate({ name: "vite app" })).id;
    await waitForStatus(api, workspaceId, "running");
    await copyIntoWorkspace(stack.instance, workspaceId, appDir, "/workspace/app");
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    if (appDir) rmSync(appDir, { recursive: true, force: true });
  });

  /** The preview pane's page: the frame loaded from the port's own origin. */
  async function previewFrame(page: Page): Promise<Frame> {
    const origin = `http://${VITE_PORT}-${workspaceId}.localhost:`;
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith(origin)), { timeout: 30_000 })
      .toBe(true);
    const frame = page.frames().find((f) => f.url().startsWith(origin));
    if (!frame) throw new Error("no preview frame");
    return frame;
  }

  const greeting = (page: Page) =>
    page.frameLocator("[data-testid=preview-frame]").locator("#greeting").innerText();

  it("shows a Vite dev server started in the terminal beside the editor, and hot-reloads it after an edit in the editor", async () => {
    owner = await ownerIde();
    await owner.getByTestId("sidebar-ports").click();
    expect(await owner.getByTestId("ports-empty").innerText()).toContain("npx vite --host 127.0.0.1");

    await owner.locator(SHOWN_TERMINAL).waitFor({ timeout: 30_000 });
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.type(
      `cd /workspace/app && node node_modules/vite/bin/vite.js --host 127.0.0.1 --strictPort\n`,
    );

    await owner
      .getByTestId("news-toast")
      .filter({ hasText: `Port ${VITE_PORT} (node) is listening` })
      .waitFor({ timeout: 60_000 });
    const row = owner.locator(PORT_ROW);
    expect(await row.innerText()).toContain("node");
    await row.getByTestId("port-open-beside").click();
    await expect.poll(() => greeting(owner), { timeout: 30_000 }).toBe("hello from vite");

    // A mark in the page's window: a hot update keeps it, a reload of the page would lose it.
    const app = await previewFrame(owner);
    await app.evaluate(() => Object.assign(window, { keptThroughTheUpdate: true }));

    await owner.getByTestId("sidebar-files").click();
    await owner.locator('[data-testid=tree-item][data-path="app"]').click();
    await owner.locator('[data-testid=tree-item][data-path="app/message.txt"]').click();
    const editor = owner.getByTestId("editor").locator(".cm-content");
    await expect.poll(() => editor.innerText(), { timeout: 15_000 }).toContain("hello from vite");
    await editor.click();
    await owner.keyboard.press("ControlOrMeta+a");
    await owner.keyboard.type("hot reloaded after an edit\n");
    await owner.keyboard.press("ControlOrMeta+s");

    await expect.poll(() => greeting(owner), { timeout: 30_000 }).toBe("hot reloaded after an edit");
    expect(await app.evaluate(() => "keptThroughTheUpdate" in window)).toBe(true);
  });

  it("gives the preview page no IDE cookie, and its credentialed call to the IDE's API is refused", async () => {
    const ideCookies = await owner.context().cookies(stack.url);
    expect(ideCookies.map((c) => c.name)).toContain("coder_session");

    const app = await previewFrame(owner);
    expect(await app.evaluate(() => document.cookie)).not.toMatch(/coder_/);

    const answers: number[] = [];
    owner.on("response", (response) => {
      if (response.url().includes("/api/trpc/workspace.list") && response.frame() === app)
        answers.push(response.status());
    });
    const outcome = await app.evaluate(async (ide) => {
      try {
        const res = await fetch(`${ide}/api/trpc/workspace.list`, { credentials: "include" });
        return `read the answer: ${res.status} ${await res.text()}`;
      } catch {
        return "refused";
      }
    }, stack.url);
    expect(outcome).toBe("refused");
    // Whatever reached the service, it did not answer with the list.
    expect(answers.filter((status) => status === 200)).toEqual([]);
  });

  it("keeps the preview's own cookie working in the cross-site pane while third-party cookies are blocked", async () => {
    const app = await previewFrame(owner);
    // The pane is a cross-site iframe of the IDE, and this Chromium blocks third-party cookies (as
    // Chromium does for people who chose to): a plain cookie set there is dropped, a partitioned kept.
    const kept = await app.evaluate(() => {
      // biome-ignore lint/suspicious/noDocumentCookie: set as the app's own script would
      document.cookie = "plain=1; SameSite=None; Secure; Path=/";
      // biome-ignore lint/suspicious/noDocumentCookie: set as the app's own script would
      document.cookie = "partitioned=1; SameSite=None; Secure; Partitioned; Path=/";
      return document.cookie;
    });
    expect(kept).not.toMatch(/plain=1/);
    expect(kept).toMatch(/partitioned=1/);
    // A request of the app's own, without a token: only the preview cookie lets it through.
    const status = await app.evaluate(
      async () => (await fetch("/message.txt", { credentials: "include", redirect: "manual" })).status,
    );
    expect(status).toBe(200);
  });

  it("opens the app in a new tab that has no hold on the IDE's window", async () => {
    await owner.getByTestId("sidebar-ports").click();
    // From the Ports panel's Open, and from the pane's "open in new tab".
    for (const button of [
      owner.locator(PORT_ROW).getByTestId("port-open"),
      owner.getByTestId("preview-new-tab"),
    ]) {
      const [tab] = await Promise.all([owner.context().waitForEvent("page"), button.click()]);
      await expect
        .poll(() => tab.locator("#greeting").innerText(), { timeout: 30_000 })
        .toBe("hot reloaded after an edit");
      expect(new URL(tab.url()).host).toMatch(new RegExp(`^${VITE_PORT}-${workspaceId}\\.localhost:`));
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    }
  });

  it("shows a viewer the ports without the visibility control, and Open only while the owner shares the port", async () => {
    const viewer = (await join("viewer", "Vera")).page;
    await viewer.getByTestId("sidebar-ports").click();
    const row = viewer.locator(PORT_ROW);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByTestId("port-visibility-text").innerText()).toBe("Private");
    expect(await viewer.getByTestId("port-visibility").count()).toBe(0);
    expect(await row.getByTestId("port-open").count()).toBe(0);

    await owner.getByTestId("sidebar-ports").click();
    await owner.locator(PORT_ROW).getByTestId("port-visibility").selectOption("workspace");
    await expect
      .poll(() => row.getByTestId("port-visibility-text").innerText(), { timeout: 10_000 })
      .toBe("Workspace");
    await row.getByTestId("port-open-beside").click();
    await expect.poll(() => greeting(viewer), { timeout: 30_000 }).toBe("hot reloaded after an edit");

    await owner.locator(PORT_ROW).getByTestId("port-visibility").selectOption("public");
    for (const page of [owner, viewer]) {
      await page.getByTestId("port-public-warning").waitFor({ timeout: 10_000 });
    }

    // Private again: the viewer's pane says so instead of the app, and Open is gone.
    await owner.locator(PORT_ROW).getByTestId("port-visibility").selectOption("private");
    await expect
      .poll(() => viewer.getByTestId("preview-problem").innerText(), { timeout: 10_000 })
      .toBe(`Port ${VITE_PORT} is private now: only the owner and editors may open it.`);
    expect(await row.getByTestId("port-open").count()).toBe(0);
  });

  it("says in plain words when nothing listens on the port any more, opens it again from its toast, and says when the workspace is stopped", async () => {
    const problem = owner.getByTestId("preview-problem");
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.press("Control+C");
    await expect
      .poll(() => problem.innerText(), { timeout: 30_000 })
      .toContain(`Nothing listens on port ${VITE_PORT} now`);
    expect(await owner.locator(PORT_ROW).count()).toBe(0);

    // The server comes back: so does the app, without a click.
    await owner.keyboard.type("node node_modules/vite/bin/vite.js --host 127.0.0.1 --strictPort\n");
    await expect.poll(() => greeting(owner), { timeout: 60_000 }).toBe("hot reloaded after an edit");
    // With the pane closed, the toast of the next start opens it again (toasts last 8 s: act at once).
    await owner.getByTestId("preview-close").click();
    expect(await owner.getByTestId("preview-pane").count()).toBe(0);
    await owner.locator(SHOWN_TERMINAL).click();
    await owner.keyboard.press("Control+C");
    await expect.poll(() => owner.locator(PORT_ROW).count(), { timeout: 30_000 }).toBe(0);
    await owner.keyboard.type("node node_modules/vite/bin/vite.js --host 127.0.0.1 --strictPort\n");
    const toast = owner
      .getByTestId("news-toast")
      .filter({ hasText: `Port ${VITE_PORT} (node) is listening` });
    await toast.getByRole("button", { name: "Open" }).click({ timeout: 60_000 });
    await expect.poll(() => greeting(owner), { timeout: 30_000 }).toBe("hot reloaded after an edit");

    await api.workspace.stop.mutate({ workspaceId });
    await expect
      .poll(() => problem.innerText(), { timeout: 60_000 })
      .toBe("The workspace is stopped: start it to see this preview.");
  });
});
