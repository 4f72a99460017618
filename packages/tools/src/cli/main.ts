import { statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { createToolContext } from "../framework/context";
import type { Registry } from "../framework/registry";
import { createSessionState } from "../framework/session";
import { fail, type SessionState, type ToolResult, type ToolsConfig } from "../framework/types";
import { checkServers, stopLspServers } from "../lsp";
import { createDefaultRegistry } from "../tools/builtin";
import { type Command, parseCommand, UsageError } from "./args";
import usage from "./usage.txt";

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Aborts the running call (the bin wires it to Ctrl-C). */
  signal?: AbortSignal;
}

/** `coder-tools` (spec §8): runs tools on a local folder, no service, no container. Returns the exit status. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
    if (command.kind === "run") checkRoot(command.root);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`coder-tools: ${error.message}\n\n${usage}`);
    return 2;
  }

  if (command.kind === "help") {
    io.stdout.write(usage);
    return 0;
  }
  if (command.kind === "list") {
    const registry = createDefaultRegistry(command.config);
    const definitions = registry.definitions({ agent: command.agent, model: command.model });
    io.stdout.write(`${JSON.stringify(definitions, null, 2)}\n`);
    return 0;
  }

  const config: ToolsConfig = { workspaceRoot: path.resolve(command.root), ...command.config };
  const log = (line: string) => io.stderr.write(`${line}\n`);
  // A broken lsp setting is reported here and again by the lsp_* tools; other tools still run.
  await checkServers(log, config).catch((error: Error) => log(`[LSP] ${error.message}`));
  const runner = new CallRunner(createDefaultRegistry(config), config, command, io);
  try {
    if (command.call) {
      await runner.run(command.call.tool, command.call.args);
      return 0;
    }
    let lineNumber = 0;
    for await (const line of createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
      lineNumber++;
      if (line.trim() === "") continue;
      const call = parseCallLine(line, lineNumber);
      if ("ok" in call) runner.print(call);
      else await runner.run(call.tool, call.args);
    }
    return 0;
  } finally {
    // Language servers started by lsp_* calls would otherwise keep the process alive.
    await stopLspServers();
  }
}

/** Runs calls one after another in one session and prints each result as a JSON line. */
class CallRunner {
  private readonly session: SessionState;
  private calls = 0;

  constructor(
    private readonly registry: Registry,
    private readonly config: ToolsConfig,
    private readonly command: Extract<Command, { kind: "run" }>,
    private readonly io: CliIo,
  ) {
    this.session = createSessionState(command.session);
  }

  async run(tool: string, args: unknown): Promise<void> {
    this.calls++;
    const ctx = createToolContext({
      workspaceRoot: this.command.root,
      session: this.session,
      callId: `cli-${process.pid}-${this.calls}`,
      config: this.config,
      ...(this.io.signal ? { abort: this.io.signal } : {}),
    });
    const { result } = await this.registry.execute(tool, args, ctx);
    this.print(result);
  }

  print(result: ToolResult): void {
    this.io.stdout.write(`${JSON.stringify(result)}\n`);
  }
}

function parseCallLine(line: string, lineNumber: number): { tool: string; args: unknown } | ToolResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return fail("invalid_args", `line ${lineNumber} is not valid JSON: ${(error as Error).message}`);
  }
  const call = value as { tool?: unknown; args?: unknown } | null;
  if (call === null || typeof call !== "object" || typeof call.tool !== "string") {
    return fail("invalid_args", `line ${lineNumber} must be an object like {"tool": "read", "args": {...}}`);
  }
  return { tool: call.tool, args: call.args ?? {} };
}

function checkRoot(root: string): void {
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    throw new UsageError(`--root ${root} does not exist`);
  }
  if (!isFolder) throw new UsageError(`--root ${root} is not a folder`);
}
