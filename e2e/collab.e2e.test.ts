import type { TRPCClient } from "@trpc/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, login, trpcClient, waitForStatus } from "../apps/sandbox/src/testing/harness";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { launchBrowser, logIn } from "./support/browser";
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedTurn,
  startModelServer,
} from "./support/model-server";
import { type Stack, startStack } from "./support/stack";

const FILE = "team.txt";
const START = "owner line\neditor line\nagent line\nsed line\n";

/**
 * A scripted agent that reads the file and replaces "agent line": when its edit finds the file
 * changed since it read it (people are typing), it reads again, as a model would.
 */
function editingAgent(request: RecordedRequest): ScriptedTurn {
  const messages = request.body.messages;
  if (!request.body.tools) return { text: "Team file" };
  const last = messages.at(-1);
  const read = { toolCalls: [{ name: "read", args: { path: FILE } }] };
  if (last?.role !== "tool") return read;
  const asked = messages.findLast((m) => m.role === "assistant" && Array.isArray(m.tool_calls));
  const tool = (asked?.tool_calls as { function: { name: string } }[] | undefined)?.[0]?.function.name;
  if (tool === "read") {
    return {
      toolCalls: [
        { name: "edit", args: { path: FILE, old_string: "agent line", new_string: "agent line +agent" } },
      ],
    };
  }
  if (/stale|changed on disk|not been read/.test(JSON.stringify(last.content))) return read;
  return { text: "Done." };
}

/** Owner, an editor guest and a viewer guest, each in their own Chromium context, on one live file. */
describe("live co-editing in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(async () => {
    model = await startModelServer({ fallback: editingAgent });
    [stack, browser] = await Promise.all([
      startStack({
        agentEnv: { CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL, CODER_MODELS: "scripted" },
      }),
      launchBrowser(),
    ]);
    api = trpcClient(stack.url, await login(stack.url, stack.token));
    workspaceId = (await api.workspace.create.mutate({ name: "team" })).id;
    await waitForStatus(api, workspaceId, "running");
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await model?.close();
  });

  const disk = async (path: string) => (await api.files.read.query({ workspaceId, path })).content;
  const sh = (script: string) => execIn(stack.instance, workspaceId, ["sh", "-c", script]);

  /** A page that keeps every WebSocket it opens, so a test can drop the live-editing one. */
  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      const opened: WebSocket[] = [];
      (window as unknown as { __sockets: WebSocket[] }).__sockets = opened;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          opened.push(this);
        }
      };
    });
    return page;
  }

  async function ownerIde(): Promise<Page> {
    const page = await newPage();
    await logIn(page, stack.url, stack.token);
    await page.goto(`${stack.url}/w/${workspaceId}`);
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    return page;
  }

  /** A guest opens a real share link in their own browser and joins under a name. */
  async function guestIde(role: "viewer" | "editor", name: string): Promise<Page> {
    const { url } = await api.share.create.mutate({ workspaceId, role });
    const page = await newPage();
    await page.goto(url);
    await page.getByTestId("join-name").fill(name);
    await page.getByTestId("join-submit").click();
    await page.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
    await page.locator('[data-testid=chat-panel][data-ready="true"]').waitFor({ timeout: 30_000 });
    return page;
  }

  /**
   * The shown file's text, line by line as CodeMirror draws it, without the other people's carets
   * (their name labels are widgets inside the lines).
   */
  const editorText = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll("[data-testid=editor] .cm-line"))
        .map((line) => {
          const copy = line.cloneNode(true) as Element;
          for (const caret of copy.querySelectorAll(".cm-ySelectionCaret")) caret.remove();
          return (copy.textContent ?? "").replaceAll("\u2060", "");
        })
        .join("\n")
        .replace(/\n+$/, ""),
    );
  const tab = (page: Page, path: string) => page.locator(`[data-testid=editor-tab][data-path="${path}"]`);

  async function openLive(page: Page, path: string, expected: string): Promise<void> {
    await page.locator(`[data-testid=tree-item][data-path="${path}"]`).click();
    await expect.poll(() => tab(page, path).getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(expected);
  }

  /** Puts the cursor at the end of line `n` (0-based) and types. */
  async function typeAtEndOfLine(page: Page, n: number, text: string): Promise<void> {
    await page.getByTestId("editor").locator(".cm-line").nth(n).click();
    await page.keyboard.press("End");
    await page.keyboard.type(text, { delay: 20 });
  }

  async function dropLiveSockets(page: Page): Promise<void> {
    await page.evaluate(() => {
      for (const ws of (window as unknown as { __sockets: WebSocket[] }).__sockets) {
        if (ws.url.includes("/collab/")) ws.close();
      }
    });
  }

  it("owner, editor and the agent type on different lines while sed changes another: all converge, nothing twice, the viewer types nothing", async () => {
    await api.files.write.mutate({ workspaceId, path: FILE, content: START });
    const owner = await ownerIde();
    const [editor, viewer] = await Promise.all([guestIde("editor", "Ed"), guestIde("viewer", "Vera")]);
    await Promise.all([owner, editor, viewer].map((page) => openLive(page, FILE, "sed line")));

    // A new conversation is a draft until its first message.
    await owner.getByTestId("session-new").click();
    await owner.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    await owner.getByTestId("chat-input").fill("Mark the agent line");
    // The agent starts; while it works, two people type and a command rewrites the file.
    await owner.getByTestId("chat-send").click();
    await Promise.all([
      typeAtEndOfLine(owner, 0, " +owner"),
      typeAtEndOfLine(editor, 1, " +editor"),
      sh(`sed -i 's/^sed line$/sed line +sed/' ${FILE}`),
    ]);
    // The viewer tries too.
    await typeAtEndOfLine(viewer, 2, " +viewer");

    const expected = "owner line +owner\neditor line +editor\nagent line +agent\nsed line +sed\n";
    for (const page of [owner, editor, viewer]) {
      await expect.poll(() => editorText(page), { timeout: 60_000 }).toBe(expected.slice(0, -1));
    }
    await expect.poll(() => disk(FILE), { timeout: 15_000 }).toBe(expected);
    await expect.poll(() => tab(owner, FILE).getAttribute("data-dirty"), { timeout: 10_000 }).toBe("false");
    // Cursors carry the names the service gave: the owner sees Ed's.
    await expect
      .poll(() => owner.locator(".cm-ySelectionInfo").allInnerTexts(), { timeout: 10_000 })
      .toContain("Ed");
    await Promise.all([owner, editor, viewer].map((page) => page.context().close()));
  });

  it("keeps typing made while the socket was down, once, after it reconnects", async () => {
    await api.files.write.mutate({ workspaceId, path: "drop.txt", content: "first\nsecond\n" });
    const [owner, editor] = await Promise.all([ownerIde(), guestIde("editor", "Eddie")]);
    await Promise.all([openLive(owner, "drop.txt", "second"), openLive(editor, "drop.txt", "second")]);
    await typeAtEndOfLine(owner, 0, " before");
    await dropLiveSockets(owner);
    await owner.keyboard.type(" during", { delay: 20 });
    await typeAtEndOfLine(editor, 1, " other");
    const expected = "first before during\nsecond other\n";
    await expect.poll(() => editorText(editor), { timeout: 30_000 }).toBe(expected.slice(0, -1));
    await expect.poll(() => editorText(owner), { timeout: 30_000 }).toBe(expected.slice(0, -1));
    await expect.poll(() => disk("drop.txt"), { timeout: 15_000 }).toBe(expected);
    await Promise.all([owner, editor].map((page) => page.context().close()));
  });

  it("says when an open file is deleted, and follows one that is renamed with the typing in it", async () => {
    await api.files.write.mutate({ workspaceId, path: "doomed.txt", content: "doomed\n" });
    await api.files.write.mutate({ workspaceId, path: "old-name.txt", content: "moving\n" });
    const page = await ownerIde();
    await openLive(page, "doomed.txt", "doomed");
    await openLive(page, "old-name.txt", "moving");
    await typeAtEndOfLine(page, 0, " along");
    await expect.poll(() => disk("old-name.txt"), { timeout: 15_000 }).toBe("moving along\n");

    await sh("mv old-name.txt new-name.txt");
    await tab(page, "new-name.txt").waitFor({ timeout: 20_000 });
    await expect
      .poll(() => tab(page, "new-name.txt").getAttribute("data-live"), { timeout: 20_000 })
      .toBe("true");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toBe("moving along");

    await sh("rm doomed.txt");
    await tab(page, "doomed.txt").click();
    await expect
      .poll(() => page.getByTestId("disk-notice").getAttribute("data-notice"), { timeout: 20_000 })
      .toBe("deleted-on-disk");
    expect(await editorText(page)).toBe("doomed");
    await page.context().close();
  });
});
