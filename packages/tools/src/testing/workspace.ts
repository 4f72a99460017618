// Test helpers: a temporary workspace with files, and calls through the default registry.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolContext, type ToolContextOptions } from "../framework/context";
import type { Execution } from "../framework/execute";
import { createSessionState } from "../framework/session";
import type { SessionState, ToolContext, ToolsConfig } from "../framework/types";
import { createDefaultRegistry } from "../tools/builtin";

export interface TestWorkspace {
  /** Real path of the workspace folder. */
  root: string;
  /** A folder beside the workspace (outside it), for escape attempts. */
  outside: string;
  spillDir: string;
  session: SessionState;
  write(relative: string, content: string | Buffer): string;
  context(options?: Partial<ToolContextOptions>): ToolContext;
  /** One call through the default registry, in this workspace's session. */
  call(tool: string, args: unknown, options?: Partial<ToolContextOptions>): Promise<Execution>;
  cleanup(): void;
}

export function createTestWorkspace(
  files: Record<string, string> = {},
  config: ToolsConfig = {},
): TestWorkspace {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "coder-tools-test-")));
  const root = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  const spillDir = path.join(base, "spill");
  mkdirSync(root);
  mkdirSync(outside);
  const session = createSessionState("test");
  const registry = createDefaultRegistry(config);
  const write = (relative: string, content: string | Buffer) => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  for (const [name, content] of Object.entries(files)) write(name, content);
  const context = (options: Partial<ToolContextOptions> = {}) =>
    createToolContext({ workspaceRoot: root, session, spillDir, config, ...options });
  return {
    root,
    outside,
    spillDir,
    session,
    write,
    context,
    call: (tool, args, options) => registry.execute(tool, args, context(options)),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
