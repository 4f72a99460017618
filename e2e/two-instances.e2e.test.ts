import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../apps/sandbox/src/db/testing/test-database";
import { login, openTerminal, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import { launchBrowser, logIn } from "./support/browser";
import { type ModelServer, startModelServer } from "./support/model-server";
import { type OtherInstance, type Stack, startOtherInstance, startStack } from "./support/stack";

describe("two service instances on one PostgreSQL database, a browser on each", () => {
  let a: Stack;
  let b: OtherInstance;
  let browser: Browser;
  let model: ModelServer;
  let configDir: string;
  let workspaceId: string;

  beforeAll(async () => {
    model = await startModelServer();
    configDir = mkdtempSync(path.join(tmpdir(), "coder-e2e-two-"));
    const configFile = path.join(configDir, "agent.json");
    writeFileSync(configFile, JSON.stringify({ permissions: { "*": { bash: "ask" } } }));
    const databaseUrl = await createPostgresDatabase();
    [a, browser] = await Promise.all([
      startStack({
        agentEnv: {
          CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
          CODER_MODELS: "scripted",
          CODER_AGENT_CONFIG: configFile,
        },
        env: { CODER_DATABASE_URL: databaseUrl },
      }),
      launchBrowser(),
    ]);
    b = await startOtherInstance(a);
    const api = trpcClient(a.url, await login(a.url, a.token));
    workspaceId = (await api.workspace.create.mutate({ name: "two instances" })).id;
    await waitForStatus(api, workspaceId, "running");
  });

  afterAll(async () => {
    await browser?.close();
    await b?.close();
    await a?.close();
    await model?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  /** The IDE of the workspace on one instance, with the given chat session open. */
  async function openSession(url: string, sessionId: string): Promise<Page> {
    const page = await browser.newPage();
    await logIn(page, url, a.token);
    await page.goto(`${url}/w/${workspaceId}`);
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    const item = page.locator(`[data-testid=session-item][data-id="${sessionId}"]`);
    if ((await item.getAttribute("data-current")) !== "true") await item.click();
    await page.locator(`[data-testid=session-item][data-id="${sessionId}"][data-current="true"]`).waitFor();
    return page;
  }

  const assistantText = (page: Page) =>
    page.locator("[data-testid=message][data-role=assistant]").last().innerText();
  const bashCard = (page: Page) => page.locator('[data-testid=tool-card][data-tool="bash"]').last();

  it("a turn started on A streams on B, and the approval given on B lets the turn go on on A", async () => {
    // A session both instances list (the login of one is valid on the other: same database).
    const apiB = trpcClient(b.url, await login(b.url, a.token));
    const session = await apiB.session.create.mutate({ workspaceId, agent: "build" });
    const [pageA, pageB] = await Promise.all([
      openSession(a.url, session.id),
      openSession(b.url, session.id),
    ]);
    // Each page's presence shows both logins, the one on the other instance too.
    for (const page of [pageA, pageB]) {
      await expect.poll(() => page.getByTestId("presence-person").count(), { timeout: 15_000 }).toBe(2);
    }

    model.push(
      {
        text: ["Looking ", "at the ", "workspace ", "first."],
        delayMs: 150,
        toolCalls: [{ name: "bash", args: { command: "echo from-instance-a > proof.txt; cat proof.txt" } }],
      },
      { text: "All done." },
    );
    await pageA.getByTestId("chat-input").fill("write the proof");
    await pageA.getByTestId("chat-send").click();

    // B follows the turn A runs, as it streams, and shows the approval it waits for.
    await expect
      .poll(() => assistantText(pageB), { timeout: 30_000 })
      .toContain("Looking at the workspace first.");
    const approvalB = pageB.getByTestId("approval");
    await approvalB.waitFor({ timeout: 30_000 });
    expect(await approvalB.innerText()).toContain("proof.txt");
    await pageA.getByTestId("approval").waitFor({ timeout: 30_000 });

    await pageB.getByTestId("approval-once").click();

    // The turn goes on where it runs (A), and both pages see it end.
    for (const page of [pageA, pageB]) {
      await bashCard(page).and(page.locator("[data-status=completed]")).waitFor({ timeout: 30_000 });
      await expect
        .poll(() => bashCard(page).getByTestId("tool-output").innerText())
        .toContain("from-instance-a");
      await expect.poll(() => assistantText(page), { timeout: 30_000 }).toContain("All done.");
      await expect.poll(() => page.getByTestId("approval").count()).toBe(0);
    }
    const turns = (await apiB.session.get.query({ sessionId: session.id })).turns;
    expect(turns.map((t) => t.status)).toEqual(["done"]);
    // Run by A: the turn's row names A's instance, not B's.
    const client = new pg.Client(a.config.databaseUrl);
    await client.connect();
    const owners = await client.query("select instance_id from turns where session_id = $1", [session.id]);
    await client.end();
    expect(owners.rows).toEqual([{ instance_id: a.service.instanceId }]);
    expect(a.service.instanceId).not.toBe(b.service.instanceId);
    await pageA.close();
    await pageB.close();
  });

  it("a terminal through B shares its tmux session with one through A, and B's list follows what A does", async () => {
    const [cookieA, cookieB] = await Promise.all([login(a.url, a.token), login(b.url, a.token)]);
    const termA = await openTerminal(a.url, cookieA, workspaceId, "shared");
    const termB = await openTerminal(b.url, cookieB, workspaceId, "shared");
    termA.send("echo typed-$((20+3))-on-a\r");
    await termB.waitFor(/typed-23-on-a/);
    termA.ws.close();
    termB.ws.close();

    const page = await browser.newPage();
    await logIn(page, b.url, a.token);
    await page.goto(b.url);
    const apiA = trpcClient(a.url, cookieA);
    const { id } = await apiA.workspace.create.mutate({ name: "made on A" });
    const row = page.locator(`[data-testid=workspace-row][data-workspace-id="${id}"]`);
    await row.and(page.locator('[data-status="running"]')).waitFor({ timeout: 60_000 });
    // Gone from the database, not only from the engine: B hears it from A.
    await apiA.workspace.delete.mutate({ workspaceId: id });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
    await page.close();
  });
});
