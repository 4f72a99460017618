import { COLLAB_TEXT } from "@coder/protocol";
import type { Page } from "playwright-core";
import * as Y from "yjs";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { launchBrowser, logIn } from "../../../e2e/support/browser";
import { startStack } from "../../../e2e/support/stack";
import { ensureWebBuild } from "../../../scripts/lib/web-build.mjs";
import { DiskMerge } from "../src/collab/disk-merge";
import { collabSocket, openDocument } from "../src/collab/testing/collab-client";
import {
  execIn,
  login,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../src/testing/harness";
import { until } from "../src/testing/until";

const now = () => performance.now();
const KEYSTROKES = 300;
const MERGES = 100;
/** Merges before the measured ones, so the JIT has compiled the diff and Yjs paths. */
const WARM_UP = 10;
const LINES = 10_000;
const BROWSER_KEYSTROKES = 100;

/**
 * Keystroke latency as people see it: a key pressed in one Chromium page (its keydown time) until
 * the other page's editor shows the character (a MutationObserver's time), through the real UI,
 * the service and its Hocuspocus.
 */
async function browserKeystrokes(): Promise<number[]> {
  await ensureWebBuild();
  const [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  try {
    const api = trpcClient(stack.url, await login(stack.url, stack.token));
    const { id } = await api.workspace.create.mutate({ name: "bench keystrokes" });
    await waitForStatus(api, id, "running");
    await api.files.write.mutate({ workspaceId: id, path: "keys.txt", content: "typing here\n" });
    const open = async (): Promise<Page> => {
      const page = await (await browser.newContext()).newPage();
      await logIn(page, stack.url, stack.token);
      await page.goto(`${stack.url}/w/${id}`);
      await page.locator('[data-testid=tree-item][data-path="keys.txt"]').click({ timeout: 30_000 });
      await page.locator('[data-testid=editor-tab][data-live="true"]').waitFor({ timeout: 30_000 });
      return page;
    };
    const typist = await open();
    const watcher = await open();
    // Both pages run in one Chromium: `timeOrigin + now()` is one clock for both.
    await typist.evaluate(() => {
      const times: number[] = [];
      (window as unknown as { __keys: number[] }).__keys = times;
      window.addEventListener("keydown", () => times.push(performance.timeOrigin + performance.now()), true);
    });
    // Plain script text: the bench runs through tsx, which would wrap named functions in a helper
    // the page does not have.
    await watcher.evaluate(`(() => {
      const times = [];
      window.__seen = times;
      const content = document.querySelector("[data-testid=editor] .cm-content");
      let last = content.textContent.split("x").length - 1;
      new MutationObserver(() => {
        const now = performance.timeOrigin + performance.now();
        for (let n = content.textContent.split("x").length - 1; last < n; last++) times.push(now);
      }).observe(content, { subtree: true, childList: true, characterData: true });
    })()`);
    await typist.locator("[data-testid=editor] .cm-line").first().click();
    for (let i = 1; i <= BROWSER_KEYSTROKES; i++) {
      await typist.keyboard.press("x");
      await watcher.waitForFunction((n) => (window as unknown as { __seen: number[] }).__seen.length >= n, i);
    }
    const keys = await typist.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
    const seen = await watcher.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
    // The click's own keydown-free focus aside, every key pressed is one "x".
    const pressed = keys.slice(-BROWSER_KEYSTROKES);
    return seen.slice(0, BROWSER_KEYSTROKES).map((at, i) => at - (pressed[i] as number));
  } finally {
    await browser.close();
    await stack.close();
  }
}

/**
 * Keystroke latency through the service: one client inserts a character into its Y.Doc (as
 * y-codemirror does for a key), the update goes over its WebSocket to Hocuspocus in the service
 * and out to the other client; the clock stops when the other client's text has it.
 */
async function keystrokes(t: TestService, workspaceId: string): Promise<number[]> {
  await execIn(t.instance, workspaceId, ["sh", "-c", "printf 'typing\\n' > keys.txt"]);
  const sockets = [collabSocket(t.url, t.cookie, workspaceId), collabSocket(t.url, t.cookie, workspaceId)];
  const [a, b] = sockets.map((s) => openDocument(s, "keys.txt"));
  if (!a || !b) throw new Error("two clients");
  await until(() => a.provider.isSynced && b.provider.isSynced, "both clients synced");
  const text = b.doc.getText(COLLAB_TEXT);
  const samples: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const arrived = new Promise<number>((resolve) => {
      const seen = () => {
        text.unobserve(seen);
        resolve(now());
      };
      text.observe(seen);
    });
    const start = now();
    a.doc.getText(COLLAB_TEXT).insert(0, "x");
    samples.push((await arrived) - start);
    // A person types a few keys a second at most; this is faster still, but not a flood.
    await new Promise((r) => setTimeout(r, 10));
  }
  // A provider's awareness keeps a timer running until the provider is destroyed.
  for (const doc of [a, b]) doc.provider.destroy();
  for (const s of sockets) s.destroy();
  return samples;
}

/** The service's cost of merging a one-line disk change into a live 10 000-line document with typing pending. */
async function diskMerges(): Promise<number[]> {
  const lines = Array.from({ length: LINES }, (_, i) => `    const value${i} = compute(${i}); // line ${i}`);
  let disk = `${lines.join("\n")}\n`;
  const live = new Y.Doc();
  const merge = new DiskMerge(live, disk);
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + MERGES; i++) {
    // Someone typed near the top since the last write-back…
    live.getText(COLLAB_TEXT).insert(10 + i, "t");
    // …while a command changed one line far below.
    const at = 1000 + ((i * 97) % (LINES - 2000));
    lines[at] = `    const value${at} = recompute(${at}, ${i}); // changed`;
    disk = `${lines.join("\n")}\n`;
    const start = now();
    // The diff runs in slices: the merge's time is until it is done, the waits between slices included.
    await merge.diskChanged(disk);
    if (i >= WARM_UP) samples.push(now() - start);
  }
  merge.destroy();
  return samples;
}

export async function run(): Promise<BenchResult[]> {
  const merges = await diskMerges();
  const inBrowsers = await browserKeystrokes();
  const browserP50 = percentile(inBrowsers, 50);
  const t = await startTestService();
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "bench collab" });
    await waitForStatus(t.api, id, "running");
    const keys = await keystrokes(t, id);
    const p50 = percentile(keys, 50);
    const mergeP99 = percentile(merges, 99);
    return [
      {
        name: "keystroke in one browser → visible in another (Chromium, through the service) p50",
        value: round(browserP50, 2),
        unit: "ms",
        target: "≤ 30 ms",
        pass: browserP50 <= 30,
      },
      {
        name: "keystroke in one browser → visible in another p99",
        value: round(percentile(inBrowsers, 99), 2),
        unit: "ms",
      },
      {
        name: "keystroke in one client → in the other, through the service (Yjs over WebSockets) p50",
        value: round(p50, 2),
        unit: "ms",
      },
      { name: "keystroke → other client p99", value: round(percentile(keys, 99), 2), unit: "ms" },
      {
        name: "merge a disk change into a live 10 000-line document (typing pending) p50",
        value: round(percentile(merges, 50), 2),
        unit: "ms",
      },
      {
        name: "disk merge, 10 000 lines p99",
        value: round(mergeP99, 2),
        unit: "ms",
        target: "≤ 20 ms",
        pass: mergeP99 <= 20,
      },
    ];
  } finally {
    await t.close();
  }
}
