import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";

const bin = fileURLToPath(new URL("../../bin/coder-tools.mjs", import.meta.url));
// The copy of bash-language-server that `npm test` installs into the workspace image's build
// context (scripts/lib/workspace-image.mjs): a real server on this machine, outside any container.
const serverBin = fileURLToPath(
  new URL("../../../../images/workspace/.context/bash-ls/node_modules/.bin", import.meta.url),
);

/** One JSON-lines session of `coder-tools run`, with the local server on PATH. */
function session(root: string, calls: object[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "run", "--root", root], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, PATH: `${serverBin}${path.delimiter}${process.env.PATH ?? ""}` },
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", () =>
      resolve(
        stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
      ),
    );
    child.stdin.end(calls.map((c) => JSON.stringify(c)).join("\n"));
  });
}

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "run.sh": '#!/bin/bash\ngreet() {\n  echo "hi $1"\n}\ngreet world\n' });
});
afterEach(() => ws.cleanup());

describe("coder-tools with a language server installed on the machine", () => {
  it("answers hover and definition from bash-language-server on a local folder", async () => {
    expect(
      existsSync(path.join(serverBin, "bash-language-server")),
      "run through npm test, which installs it",
    ).toBe(true);
    const [hover, definition] = await session(ws.root, [
      { tool: "lsp_hover", args: { path: "run.sh", line: 4, character: 1 } },
      { tool: "lsp_definition", args: { path: "run.sh", line: 4, character: 1 } },
    ]);
    expect(hover).toMatchObject({ ok: true });
    expect(String(hover?.contents)).toMatch(/greet/);
    expect(definition).toMatchObject({ ok: true, location: { range: { start: { line: 1 } } } });
  });
});
