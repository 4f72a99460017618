import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkServers } from "./check";
import { findExecutable } from "./executable";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "coder-lsp-check-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("checkServers", () => {
  it("logs one line per missing server with its install command, and nothing for installed ones", async () => {
    const lines: string[] = [];
    const checks = await checkServers((line) => lines.push(line), {
      lsp: {
        servers: [
          {
            language: "python",
            command: ["coder-test-missing-pylsp"],
            extensions: ["py"],
            install: "pip install x",
          },
          { language: "bash", command: [process.execPath], extensions: ["sh"], install: "npm i -g y" },
          { language: "typescript", command: [process.execPath], extensions: ["ts"], install: "npm i -g z" },
        ],
      },
    });
    expect(lines).toEqual(["[LSP] python: coder-test-missing-pylsp not installed, run: pip install x"]);
    expect(checks).toEqual([
      { language: "bash", program: process.execPath, installed: true },
      { language: "python", program: "coder-test-missing-pylsp", installed: false },
      { language: "typescript", program: process.execPath, installed: true },
    ]);
  });
});

describe("findExecutable", () => {
  it("looks a program up on PATH and skips files that are not executable", async () => {
    await writeFile(path.join(dir, "tool"), "#!/bin/sh\n");
    expect(await findExecutable("tool", dir)).toBeUndefined();
    await chmod(path.join(dir, "tool"), 0o755);
    expect(await findExecutable("tool", `/nonexistent:${dir}`)).toBe(path.join(dir, "tool"));
    expect(await findExecutable(path.join(dir, "tool"), "")).toBe(path.join(dir, "tool"));
    expect(await findExecutable(dir, "")).toBeUndefined();
  });
});
