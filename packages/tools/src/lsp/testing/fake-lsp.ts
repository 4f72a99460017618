// Test support: workspaces whose `.py` files are served by fake-server.mjs instead of pylsp.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LspServerConfig } from "@coder/protocol";
import { createToolContext } from "../../framework/context";
import type { ToolContext } from "../../framework/types";
import type { LspToolsConfig } from "../settings";

const FAKE_SERVER = fileURLToPath(new URL("./fake-server.mjs", import.meta.url));

export interface FakeServerOptions {
  pull?: boolean;
  silent?: boolean;
  /** The server appends its pid here each time it starts. */
  pidFile?: string;
  /** The next hover while this file exists crashes the server (and deletes the file). */
  crashFile?: string;
}

/** The fake server, standing in for the python server. */
export function fakePython(options: FakeServerOptions = {}): LspServerConfig {
  const args = [
    ...(options.pull ? ["--pull"] : []),
    ...(options.silent ? ["--silent"] : []),
    ...(options.pidFile ? ["--pid-file", options.pidFile] : []),
    ...(options.crashFile ? ["--crash-file", options.crashFile] : []),
  ];
  return {
    language: "python",
    command: [process.execPath, FAKE_SERVER, ...args],
    extensions: ["py"],
    install: "pip install fake-server",
  };
}

/** A server whose program does not exist. */
export function missingPython(): LspServerConfig {
  return {
    language: "python",
    command: ["coder-test-no-such-language-server"],
    extensions: ["py"],
    install: "pip install python-lsp-server",
  };
}

export interface LspTestWorkspace {
  root: string;
  ctx: ToolContext;
  /** The pids the fake server wrote when it started, in order. */
  starts(): Promise<number[]>;
  pidFile: string;
  crashFile: string;
  dispose(): Promise<void>;
}

/** A temporary workspace and a tool context whose LSP settings are `lsp` (servers built per test). */
export async function lspWorkspace(
  lsp: (paths: { pidFile: string; crashFile: string }) => LspToolsConfig,
): Promise<LspTestWorkspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), "coder-lsp-"));
  const scratch = await mkdtemp(path.join(os.tmpdir(), "coder-lsp-state-"));
  const pidFile = path.join(scratch, "pids");
  const crashFile = path.join(scratch, "crash");
  const ctx = createToolContext({ workspaceRoot: root, config: { lsp: lsp({ pidFile, crashFile }) } });
  return {
    root,
    ctx,
    pidFile,
    crashFile,
    async starts() {
      const text = await readFile(pidFile, "utf8").catch(() => "");
      return text.split("\n").filter(Boolean).map(Number);
    },
    async dispose() {
      await rm(root, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
