import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createAndOpenWorkspace, recordCspViolations, waitForTerminal } from "./support/browser";
import { useStackAndBrowser } from "./support/stack-and-browser";

const SERVER_START_MS = 60_000;

/** Writes files with printf in the terminal (`\n` in `text` is printf's newline escape). */
async function writeFiles(page: Page, files: Record<string, string>): Promise<void> {
  await page.getByTestId("terminal").click();
  for (const [path, text] of Object.entries(files)) {
    await page.keyboard.type(`printf '%b' '${text}' > ${path}\n`);
  }
  await page.keyboard.type("echo written-$((6*7))\n");
  await waitForTerminal(page, /written-42/);
}

async function openFile(page: Page, path: string): Promise<void> {
  const item = page.locator(`[data-testid=tree-item][data-path="${path}"]`);
  await item.waitFor({ timeout: 15_000 });
  await item.click();
  await page.locator(`[data-testid=editor-tab][data-path="${path}"][aria-selected=true]`).waitFor();
}

/** The screen point in the middle of `word`, first found on the editor line that contains `line`. */
async function pointAt(page: Page, line: string, word: string): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(
    ([lineText, wordText]) => {
      const lines = [...document.querySelectorAll("[data-testid=editor] .cm-line")];
      const host = lines.find((l) => l.textContent?.includes(lineText));
      if (!host) return null;
      let at = (host.textContent ?? "").indexOf(wordText, (host.textContent ?? "").indexOf(lineText));
      const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent?.length ?? 0;
        if (at < length) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, Math.min(length, at + wordText.length));
          const rect = range.getBoundingClientRect();
          return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
        }
        at -= length;
      }
      return null;
    },
    [line, word] as const,
  );
  if (!point) throw new Error(`"${word}" is not on a line with "${line}"`);
  return point;
}

async function hoverText(page: Page, line: string, word: string): Promise<string> {
  const tooltip = page.locator(".cm-tooltip-hover");
  // Hovering needs the pointer to come to rest on the word; retry in case the server was slow.
  await expect
    .poll(
      async () => {
        await page.mouse.move(5, 5);
        const { x, y } = await pointAt(page, line, word);
        await page.mouse.move(x, y);
        await tooltip
          .first()
          .waitFor({ timeout: 5_000 })
          .catch(() => undefined);
        return (await tooltip.allInnerTexts()).join("\n");
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  return (await tooltip.allInnerTexts()).join("\n");
}

async function waitReady(page: Page, language: string): Promise<void> {
  await page
    .locator(`[data-testid=lsp-status][data-language=${language}][data-state=ready]`)
    .waitFor({ timeout: SERVER_START_MS });
}

describe("language intelligence in the editor", () => {
  const ide = useStackAndBrowser();

  it("underlines a Python error, lists it, shows hovers and completions, and jumps to a definition in another file", async () => {
    const page = await ide.browser.newPage();
    const cspViolations = await recordCspViolations(page);
    await createAndOpenWorkspace(page, ide.stack, "e2e lsp python");
    await writeFiles(page, {
      "helper.py": 'def greet(name):\\n    return "hi " + name\\n',
      "main.py":
        "import os\\nfrom helper import greet\\n\\n\\ndef add(a, b):\\n    return a + b\\n\\n\\nprint(add(1, 2), greet(os.sep), missing_name)\\n",
    });
    await openFile(page, "main.py");
    await waitReady(page, "python");

    // Diagnostics: an underline in the text and an entry in the problems list.
    await page.locator("[data-testid=editor] .cm-lintRange-error").first().waitFor({ timeout: 30_000 });
    const problem = page.locator('[data-testid=problems] [data-testid=problem][data-severity="error"]');
    await expect
      .poll(() => problem.allInnerTexts(), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/main\.py:9:\d+[\s\S]*missing_name/));

    // Hover over a call shows the function's signature.
    expect(await hoverText(page, "print(add", "add")).toMatch(/add\(a, b\)/);

    // Completion after `os.` offers `path`.
    await page.mouse.move(5, 5);
    const end = await pointAt(page, "print(add", "missing_name");
    await page.mouse.click(end.x, end.y);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("os.pa");
    const completions = page.locator(".cm-tooltip-autocomplete li");
    await expect
      .poll(() => completions.allInnerTexts(), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/^path\b/));
    await page.keyboard.press("Escape");

    // Clicking the problem puts the cursor on it.
    await problem.first().click();
    await expect
      .poll(() => page.locator("[data-testid=editor] .cm-activeLine").innerText())
      .toContain("missing_name");

    // F12 on a call of an imported function opens the file that defines it.
    const call = await pointAt(page, "print(add", "greet");
    await page.mouse.click(call.x, call.y);
    await page.keyboard.press("F12");
    await page
      .locator('[data-testid=editor-tab][data-path="helper.py"][aria-selected=true]')
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.locator("[data-testid=editor] .cm-activeLine").innerText())
      .toContain("def greet");

    // Ctrl-click jumps within the file.
    await openFile(page, "main.py");
    const add = await pointAt(page, "print(add", "add");
    await page.keyboard.down("Control");
    await page.mouse.click(add.x, add.y);
    await page.keyboard.up("Control");
    await expect
      .poll(() => page.locator("[data-testid=editor] .cm-activeLine").innerText(), { timeout: 30_000 })
      .toContain("def add");
    // The language server's WebSocket, hovers and completions run under the service's CSP.
    expect(cspViolations).toEqual([]);
  });

  // typescript-language-server with the image's TypeScript, in a workspace without tsconfig.json.
  it("underlines a TypeScript type error, lists it, shows a type on hover and jumps to a definition in another file", async () => {
    const page = await ide.browser.newPage();
    await createAndOpenWorkspace(page, ide.stack, "e2e lsp typescript");
    await writeFiles(page, {
      "greet.ts": 'export function greet(name: string): string {\\n  return "hi " + name;\\n}\\n',
      "main.ts":
        'import { greet } from "./greet";\\n\\nconst n: number = "x";\\nexport const message = greet("you") + n;\\n',
    });
    await openFile(page, "main.ts");
    await waitReady(page, "typescript");

    await page
      .locator("[data-testid=editor] .cm-lintRange-error")
      .first()
      .waitFor({ timeout: SERVER_START_MS });
    const problem = page.locator('[data-testid=problems] [data-testid=problem][data-severity="error"]');
    await expect
      .poll(() => problem.allInnerTexts(), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/main\.ts:3:\d+[\s\S]*not assignable to type 'number'/));

    expect(await hoverText(page, "export const message", "greet")).toMatch(/greet\(name: string\): string/);

    const call = await pointAt(page, "export const message", "greet");
    await page.mouse.click(call.x, call.y);
    await page.keyboard.press("F12");
    await page
      .locator('[data-testid=editor-tab][data-path="greet.ts"][aria-selected=true]')
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.locator("[data-testid=editor] .cm-activeLine").innerText())
      .toContain("export function greet");
  });

  // bash-language-server's diagnostics come from shellcheck and its builtin docs from
  // `help … | col`; the workspace image has both.
  it("shows shellcheck problems, builtin and function hovers, and jumps to a function", async () => {
    const page = await ide.browser.newPage();
    await createAndOpenWorkspace(page, ide.stack, "e2e lsp bash");
    await writeFiles(page, {
      "run.sh": '#!/bin/bash\\ngreet() {\\n  echo "hi $1"\\n}\\ngreet world\\nls $HOME_DIR\\n',
    });
    await openFile(page, "run.sh");
    await waitReady(page, "bash");

    expect(await hoverText(page, "greet world", "greet")).toMatch(/Function: greet[\s\S]*line 2/);
    expect(await hoverText(page, "echo", "echo")).toMatch(/Write arguments to the standard output/);

    // shellcheck's SC2086: the unquoted variable is underlined and listed.
    const problem = page.getByTestId("problem").filter({ hasText: /quote/i });
    await problem.first().waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=editor] .cm-lintRange").count()).toBeGreaterThan(0);

    const call = await pointAt(page, "greet world", "greet");
    await page.mouse.click(call.x, call.y);
    await page.keyboard.press("F12");
    await expect
      .poll(() => page.locator("[data-testid=editor] .cm-activeLine").innerText(), { timeout: 30_000 })
      .toContain("greet() {");
  });
});
