import type { TRPCClient } from "@trpc/client";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../apps/sandbox/src/trpc/router";
import { useAgentWorkspace } from "./support/agent-workspace";
import { waitForTerminal } from "./support/browser";
import type { ModelServer, RecordedRequest, ScriptedTurn } from "./support/model-server";
import { peopleOn } from "./support/people";

const FILE = "together.txt";
const START = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n";
const AGENT_LINE = "line 3 edited by the agent";
const SED_LINE = "line 4 from sed";
/** The shown terminal (the others are mounted, hidden). */
const SHOWN_TERMINAL = "[data-testid=terminal]:not([hidden])";
/** A person's typing cadence: one key every 60 ms plus the time the key takes to press. */
const KEY_EVERY_MS = 60;

/** A promise and the means to settle it from elsewhere. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The name of the tool the agent called last in this conversation. */
function lastToolCalled(request: RecordedRequest): string | undefined {
  const asked = request.body.messages.findLast((m) => m.role === "assistant" && Array.isArray(m.tool_calls));
  return (asked?.tool_calls as { function: { name: string } }[] | undefined)?.[0]?.function.name;
}

/**
 * Owner, an editor guest and a viewer guest in their own Chromium contexts on one live file, and
 * the agent on a scripted model: two people type without pause on lines 1 and 2 while the agent
 * reads the file and edits line 3 and the owner's shell rewrites line 4 with `sed -i`.
 */
describe("people typing, the agent editing and a shell rewriting one file at once, in Chromium", () => {
  /** How the scripted model answers; each test sets it. */
  let agent: (request: RecordedRequest) => ScriptedTurn = () => ({ text: "Nothing to do." });
  const made = useAgentWorkspace("beside", { fallback: (request) => agent(request) });
  const { ownerIde, join } = peopleOn(made);
  let model: ModelServer;
  let api: TRPCClient<AppRouter>;
  let workspaceId: string;

  beforeAll(() => {
    ({ model, api, workspaceId } = made());
  });

  const disk = async () => (await api.files.read.query({ workspaceId, path: FILE })).content;

  /** The shown file's text as CodeMirror draws it, without other people's carets and their names. */
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

  async function openLive(page: Page): Promise<void> {
    await page.locator(`[data-testid=tree-item][data-path="${FILE}"]`).click({ timeout: 30_000 });
    const tab = page.locator(`[data-testid=editor-tab][data-path="${FILE}"]`);
    await expect.poll(() => tab.getAttribute("data-live"), { timeout: 30_000 }).toBe("true");
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toContain("line 6");
  }

  /**
   * Types the letters of `word` over and over at the end of line `n` (0-based), a key every
   * ~60 ms, until stopped; `typed` is what was pressed so far.
   */
  async function keepTyping(page: Page, n: number, word: string) {
    await page.getByTestId("editor").locator(".cm-line").nth(n).click();
    await page.keyboard.press("End");
    let typed = "";
    let stopped = false;
    const done = (async () => {
      while (!stopped) {
        const key = word[typed.length % word.length] ?? "";
        await page.keyboard.press(key);
        typed += key;
        await new Promise((r) => setTimeout(r, KEY_EVERY_MS));
      }
    })();
    return {
      get typed() {
        return typed;
      },
      async stop() {
        stopped = true;
        await done;
        return typed;
      },
    };
  }

  it("both people's typing, the agent's edit of line 3 and a shell's sed of line 4 all end in every editor and on disk exactly once, and the agent's edit does not fail", async () => {
    await api.files.write.mutate({ workspaceId, path: FILE, content: START });

    // The agent reads the file, then edits line 3 once the test says so; its edit's answer ends the turn.
    const readAnswered = deferred<string>();
    const editMayGo = deferred<void>();
    agent = (request: RecordedRequest): ScriptedTurn => {
      if (!request.body.tools) return { text: "Line 3" };
      const last = request.body.messages.at(-1);
      if (last?.role !== "tool") return { toolCalls: [{ name: "read", args: { path: FILE } }] };
      if (lastToolCalled(request) === "read") {
        readAnswered.resolve(JSON.stringify(last.content));
        return {
          after: editMayGo.promise,
          toolCalls: [{ name: "edit", args: { path: FILE, old_string: "line 3", new_string: AGENT_LINE } }],
        };
      }
      return { text: "Done." };
    };
    const requestsBefore = model.requests.length;

    const owner = await ownerIde();
    // The owner's second window (another browser: a second tab of the same one waits behind the
    // first tab's event streams over HTTP/1.1): the chat and the terminal, while the first one types.
    const ownersShell = await ownerIde();
    const [{ page: editor }, { page: viewer }] = await Promise.all([
      join("editor", "Eddie"),
      join("viewer", "Vera"),
    ]);
    await Promise.all([owner, editor, viewer].map(openLive));
    const shell = ownersShell.locator(`${SHOWN_TERMINAL}[data-state="open"]`);
    await shell.waitFor({ timeout: 30_000 });
    await waitForTerminal(ownersShell, /\$\s*$/m, 30_000);

    const ownerTyping = await keepTyping(owner, 0, "owner");
    const editorTyping = await keepTyping(editor, 1, "guest");
    // Their typing is on disk before the agent reads.
    await expect.poll(disk, { timeout: 30_000 }).toMatch(/^line 1o.*\nline 2g/);

    await ownersShell.getByTestId("session-new").click();
    await ownersShell.locator('[data-testid=chat-panel][data-draft="true"]').waitFor();
    await ownersShell.getByTestId("chat-input").fill("Mark line 3 as edited by you");
    await ownersShell.getByTestId("chat-send").click();

    // The agent has read the file; the shell rewrites line 4 and more typing reaches the disk
    // before its edit is sent: the file it edits is not the one it read.
    const read = await readAnswered.promise;
    const typedAtRead = { owner: ownerTyping.typed.length, editor: editorTyping.typed.length };
    await ownersShell.locator(SHOWN_TERMINAL).click();
    await ownersShell.keyboard.type(`sed -i 's/^line 4$/${SED_LINE}/' ${FILE} && echo sed-$((40+2))\n`);
    await waitForTerminal(ownersShell, /^sed-42/m, 30_000);
    const firstLineRead = /line 1[a-z]*/.exec(read)?.[0];
    await expect.poll(async () => (await disk()).split("\n")[0], { timeout: 30_000 }).not.toBe(firstLineRead);
    editMayGo.resolve();

    const editCard = ownersShell.locator('[data-testid=tool-card][data-tool="edit"]');
    await expect
      .poll(() => editCard.getAttribute("data-status", { timeout: 1000 }).catch(() => null), {
        timeout: 60_000,
      })
      .toMatch(/^(completed|error)$/);
    const typedAtEdit = { owner: ownerTyping.typed.length, editor: editorTyping.typed.length };
    const [ownerTyped, editorTyped] = [await ownerTyping.stop(), await editorTyping.stop()];
    console.log(
      `typed ${ownerTyped.length} and ${editorTyped.length} keys; ${typedAtEdit.owner - typedAtRead.owner} and ${typedAtEdit.editor - typedAtRead.editor} between the read and the edit's answer`,
    );

    // The agent's edit applied at its first try: the card says so and the model was told no error.
    expect(await editCard.count()).toBe(1);
    expect(await editCard.getAttribute("data-status")).toBe("completed");
    expect(await editCard.innerText()).not.toMatch(/changed on disk|stale/i);
    await ownersShell.getByTestId("turn-running").waitFor({ state: "detached", timeout: 60_000 });
    const told = model.requests
      .slice(requestsBefore)
      .flatMap((_, n) => model.toolResults(requestsBefore + n))
      .join("\n");
    expect(told).not.toMatch(/changed on disk|stale_file/);
    // People kept typing while the agent worked.
    expect(typedAtEdit.owner).toBeGreaterThan(typedAtRead.owner);
    expect(typedAtEdit.editor).toBeGreaterThan(typedAtRead.editor);

    const expected = [
      `line 1${ownerTyped}`,
      `line 2${editorTyped}`,
      AGENT_LINE,
      SED_LINE,
      "line 5",
      "line 6",
      "",
    ].join("\n");
    for (const page of [owner, editor, viewer]) {
      await expect.poll(() => editorText(page), { timeout: 60_000 }).toBe(expected.slice(0, -1));
    }
    await expect.poll(disk, { timeout: 30_000 }).toBe(expected);
    for (const page of [owner, ownersShell, editor, viewer]) await page.context().close();
  });
});
