import { spawn } from "node:child_process";
import path from "node:path";
import { AccessCloseCode } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { connectLsp } from "../../apps/sandbox/src/lsp/testing/lsp-client";
import {
  login,
  openTerminal,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";
import { logIn, waitForTerminal } from "../support/browser";
import { useStackAndBrowser } from "../support/stack-and-browser";

const repo = path.resolve(import.meta.dirname, "../..");

/** `promise`, or a failure naming what never happened (instead of hanging until the test times out). */
function within<T>(promise: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves with the close code and the time it arrived. */
function closing(ws: WebSocket): Promise<{ code: number; at: number }> {
  return new Promise((resolve) => ws.once("close", (code) => resolve({ code, at: Date.now() })));
}

/**
 * A live `workspace.events` subscription over SSE, read the way the browser's EventSource reads
 * it; `ended` resolves (with the time) when the service ends the response.
 */
async function subscribe(url: string, cookie: string): Promise<{ ended: Promise<number> }> {
  const res = await fetch(`${url}/api/trpc/workspace.events`, {
    headers: { cookie, origin: url, accept: "text/event-stream" },
  });
  if (!res.body || !res.headers.get("content-type")?.includes("text/event-stream"))
    throw new Error(`no event stream: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("connected")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before it connected: ${text}`);
    text += decoder.decode(value);
  }
  const ended = (async () => {
    try {
      while (!(await reader.read()).done) {
        // pings and events: the stream is alive
      }
    } catch {
      // cut off: ended as well
    }
    return Date.now();
  })();
  return { ended };
}

/** `npm run token` as the operator runs it: its own process, on the service's data folder. */
function rotateToken(dataDir: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [path.join(repo, "node_modules/tsx/dist/cli.mjs"), "apps/sandbox/src/token-cli.ts"],
    { cwd: repo, env: { ...process.env, CODER_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(Date.now()) : reject(new Error(`npm run token failed (${code}):\n${out}`)),
    ),
  );
}

describe("logging out", () => {
  let t: TestService;
  let id: string;
  let token: string;
  beforeAll(async () => {
    t = await startTestService();
    token = t.service.adminToken ?? "";
    id = (await t.api.workspace.create.mutate({ name: "logout" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("closes the terminals, language servers and live updates of that login, then token rotation closes every other", async () => {
    const [first, second] = [await login(t.url, token), await login(t.url, token)];
    const wsUrl = t.url.replace("http", "ws");
    const terminal = await openTerminal(t.url, first, id, "first");
    const lsp = await connectLsp(`${wsUrl}/lsp/${id}/python`, { cookie: first, origin: t.url });
    const updates = await subscribe(t.url, first);
    const other = await openTerminal(t.url, second, id, "second");
    await terminal.waitFor(/workspace\$/);
    await other.waitFor(/workspace\$/);
    const terminalClosed = closing(terminal.ws);
    const lspClosed = closing(lsp.ws);
    const otherClosed = closing(other.ws);

    const loggedOutAt = Date.now();
    const res = await fetch(`${t.url}/auth/logout`, {
      method: "POST",
      headers: { cookie: first, origin: t.url },
    });
    expect(res.status).toBe(204);
    const [terminalEnd, lspEnd, updatesEnd] = await Promise.all([
      within(terminalClosed, "the terminal is still open"),
      within(lspClosed, "the language server socket is still open"),
      within(updates.ended, "the live updates still stream"),
    ]);
    expect(terminalEnd.code).toBe(AccessCloseCode.LoggedOut);
    expect(lspEnd.code).toBe(AccessCloseCode.LoggedOut);

    // The other login keeps working.
    other.send("echo still-$((6*7))\r");
    await other.waitFor(/still-42/);
    expect(other.ws.readyState).toBe(other.ws.OPEN);

    const rotatedAt = await rotateToken(t.dataDir);
    const otherEnd = await within(otherClosed, "the other login's terminal is still open after rotation");
    expect(otherEnd.code).toBe(AccessCloseCode.LoggedOut);
    await expect(trpcClient(t.url, second).workspace.list.query()).rejects.toThrow(/log in first/);

    console.info(
      `logout → closed: terminal ${terminalEnd.at - loggedOutAt} ms, language server ${lspEnd.at - loggedOutAt} ms, ` +
        `SSE ${updatesEnd - loggedOutAt} ms; rotation (after the CLI exited) → terminal closed ${otherEnd.at - rotatedAt} ms`,
    );
  });
});

describe("logging out in another tab", () => {
  const product = useStackAndBrowser();

  it("tells the open IDE its terminal was logged out, does not reconnect it, and shows the login page", async () => {
    const context = await product.browser.newContext();
    const ide = await context.newPage();
    await logIn(ide, product.stack.url, product.stack.token);
    await ide.getByTestId("workspace-name").fill("logged out");
    await ide.getByTestId("workspace-create").click();
    const row = ide.getByTestId("workspace-row").filter({ hasText: "logged out" });
    await row.and(ide.locator('[data-status="running"]')).waitFor({ timeout: 60_000 });
    await row.getByTestId("workspace-open").click();
    await ide.waitForURL(/\/w\//);
    const terminal = ide.getByTestId("terminal");
    await terminal.and(ide.locator('[data-state="open"]')).waitFor({ timeout: 30_000 });
    await waitForTerminal(ide, /workspace\$/);
    let reconnects = 0;
    ide.on("websocket", (ws) => {
      if (ws.url().includes("/terminal/")) reconnects++;
    });

    // What the terminal shows, as it changes: the page may go on to the login page within
    // milliseconds of it (its next refused call), so it is recorded as it happens.
    const shown: string[] = [];
    await ide.exposeFunction("reportTerminal", (text: string) => shown.push(text));
    await ide.evaluate(() => {
      const terminalView = document.querySelector('[data-testid="terminal"]');
      if (!terminalView) throw new Error("no terminal on the page");
      const report = (window as unknown as { reportTerminal: (text: string) => void }).reportTerminal;
      new MutationObserver(() => {
        if (terminalView.getAttribute("data-state") !== "revoked") return;
        report(document.querySelector('[data-testid="terminal-revoked"]')?.textContent ?? "");
      }).observe(terminalView, { attributes: true, childList: true, subtree: true });
    });

    const other = await context.newPage();
    await other.goto(product.stack.url);
    await other.getByRole("button", { name: "Log out" }).click();
    await other.waitForURL(/\/login/);

    await expect.poll(() => shown.join("\n"), { timeout: 10_000 }).toContain("You were logged out.");
    // The page's live updates are refused next, which takes it to the login.
    await ide.waitForURL(/\/login/, { timeout: 20_000 });
    expect(reconnects).toBe(0);
  });
});
