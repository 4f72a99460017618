import { z } from "zod";
import { formatError } from "../../framework/format";
import { defineTool, type ToolResult, type ToolsConfig } from "../../framework/types";
import bashDescription from "./bash.txt";
import { runShell } from "./run";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const DEFAULT_OUTPUT_LIMIT = 30_000;

const parameters = z.object({
  command: z
    .string()
    .refine((c) => c.trim() !== "", "must not be empty")
    .describe("The shell command to run"),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `Milliseconds before the command is stopped (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})`,
    ),
  description: z.string().optional().describe("A few words saying what the command does"),
});

/** How long a call may run before it is stopped: its `timeout_ms`, at most MAX_TIMEOUT_MS. */
export function bashTimeoutMs(timeoutMs: number | undefined): number {
  return Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
}

function outputLimit(config: ToolsConfig): number {
  return config.bash?.output_limit_bytes ?? DEFAULT_OUTPUT_LIMIT;
}

export const bashTool = defineTool({
  id: "bash",
  description: bashDescription,
  parameters,
  facts: { runsIn: "workspace", reads: "any", changes: "any" },
  templateVars: (config) => ({
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    defaultTimeoutS: DEFAULT_TIMEOUT_MS / 1000,
    maxTimeoutMs: MAX_TIMEOUT_MS,
    outputLimit: outputLimit(config),
  }),
  approval: (args) => ({
    permission: "bash",
    patterns: [args.command],
    title: args.description ?? args.command,
  }),
  async execute(args, ctx) {
    const timeoutMs = bashTimeoutMs(args.timeout_ms);
    const outcome = await runShell({
      command: args.command,
      cwd: ctx.workspaceRoot,
      timeoutMs,
      outputLimit: outputLimit(ctx.config),
      signal: ctx.abort,
      onProgress: (stdout, stderr) => ctx.metadata({ stdout, stderr }),
    });
    const result: ToolResult = {
      ok: outcome.exitCode === 0,
      command: args.command,
      exit_code: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      truncated: outcome.truncated,
      duration_ms: outcome.durationMs,
    };
    if (outcome.timedOut) {
      result.error = {
        code: "timeout",
        message: `the command did not finish within ${timeoutMs / 1000} s and was stopped`,
        hint: "raise timeout_ms, or run long-lived processes in the background",
      };
    } else if (outcome.aborted) {
      result.error = { code: "aborted", message: "the command was cancelled and stopped" };
    }
    return result;
  },
  format: formatBash,
});

/** Exit code first, then whatever the command printed. */
function formatBash(result: ToolResult): string {
  if (result.exit_code === undefined) return formatError(result);
  const parts = [`exit code ${result.exit_code}`];
  if (result.error) parts.push(formatError(result));
  if (result.stdout) parts.push(String(result.stdout).trimEnd());
  if (result.stderr) parts.push(`stderr:\n${String(result.stderr).trimEnd()}`);
  if (!result.stdout && !result.stderr) parts.push("(no output)");
  return parts.join("\n");
}
