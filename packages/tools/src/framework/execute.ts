import { describeArgsError } from "./args-error";
import { formatAsJson, formatError } from "./format";
import { spillToFolder } from "./spill";
import { truncateOutput } from "./truncate";
import { fail, type Tool, type ToolContext, ToolError, type ToolResult } from "./types";

export interface Execution {
  /** The structured result, for the UI and the orchestrator. */
  result: ToolResult;
  /** The text the model sees: the tool's formatter, truncated (full text spilled when cut). */
  output: string;
}

/** How long a tool may take to wind down after an abort before the call is answered anyway. */
const ABORT_GRACE_MS = 2000;

/** Runs one call of a known tool: validate the arguments, execute, map errors, format, truncate. */
export async function executeTool(tool: Tool, rawArgs: unknown, ctx: ToolContext): Promise<Execution> {
  const parsed = tool.parameters.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const result = fail(
      "invalid_args",
      `invalid arguments for ${tool.id}: ${describeArgsError(parsed.error)}`,
      "fix the arguments to match the tool's parameters and call it again",
    );
    return { result, output: formatError(result) };
  }
  if (ctx.abort.aborted) return finish(tool, abortedResult(), parsed.data, ctx, false);

  const result = await runUntilAborted(tool, parsed.data, ctx);
  return finish(tool, result.value, parsed.data, ctx, result.fromTool);
}

async function runUntilAborted(
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
): Promise<{ value: ToolResult; fromTool: boolean }> {
  const run = tool
    .execute(args, ctx)
    .then((value) => ({ value, fromTool: true }))
    .catch((error: unknown) => ({ value: errorResult(error, ctx), fromTool: true }));
  // A tool that ignores the signal must not hold the call open; one that honours it (bash kills
  // its process group and reports what it printed) gets a moment to say so.
  let onAbort = () => {};
  let timer: NodeJS.Timeout | undefined;
  const aborted = new Promise<{ value: ToolResult; fromTool: boolean }>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve({ value: abortedResult(), fromTool: false }), ABORT_GRACE_MS);
    };
    ctx.abort.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([run, aborted]);
  } finally {
    ctx.abort.removeEventListener("abort", onAbort);
    clearTimeout(timer);
  }
}

function errorResult(error: unknown, ctx: ToolContext): ToolResult {
  if (error instanceof ToolError) {
    const result = fail(error.code, error.message, error.hint);
    return error.extra ? { ...error.extra, ...result } : result;
  }
  if (ctx.abort.aborted) return abortedResult();
  const message = error instanceof Error ? error.message : String(error);
  return fail("io_error", message);
}

function abortedResult(): ToolResult {
  return fail("aborted", "the call was cancelled");
}

async function finish(
  tool: Tool,
  result: ToolResult,
  args: unknown,
  ctx: ToolContext,
  fromTool: boolean,
): Promise<Execution> {
  const text = fromTool && tool.format ? tool.format(result, args) : defaultText(result);
  if (tool.ownsTruncation) return { result, output: text };
  const save = ctx.saveOutput ?? spillToFolder(ctx.spillDir);
  const truncated = await truncateOutput(text, (full) => save(ctx.callId, full));
  return { result, output: truncated.text };
}

function defaultText(result: ToolResult): string {
  return result.error ? formatError(result) : formatAsJson(result);
}
