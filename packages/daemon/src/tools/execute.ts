import { createToolContext, type SessionStore, ToolError, type ToolsConfig } from "@coder/tools";
import type { DaemonHandler } from "../rpc/dispatch";
import { throttleProgress } from "./progress";
import type { ToolOutcome, ToolRunner } from "./runner";

export interface ExecuteOptions {
  root: string;
  runner: ToolRunner;
  sessions: SessionStore;
  spillDir: string;
  config: ToolsConfig;
  progress(callId: string, update: Record<string, unknown>): void;
  log(message: string): void;
}

function failure(code: ToolError["code"], message: string): ToolOutcome {
  return { result: { ok: false, error: { code, message } }, output: message };
}

export const executeMethod =
  (options: ExecuteOptions): DaemonHandler<"tools.execute"> =>
  async (params, signal): Promise<ToolOutcome> => {
    const progress = throttleProgress((update) => options.progress(params.callId, update));
    const ctx = createToolContext({
      workspaceRoot: options.root,
      session: options.sessions.get(params.sessionId),
      messageId: params.messageId ?? params.callId,
      callId: params.callId,
      agent: params.agent,
      abort: signal,
      metadata: (update) => progress.push(update),
      // No `ask`: the service settled permissions before calling, so any request is rejected.
      spillDir: options.spillDir,
      config: options.config,
    });
    try {
      // The registry answers `aborted` itself, even for a tool that ignores the signal.
      return await options.runner.execute(params.tool, params.args, ctx);
    } catch (error) {
      // The registry turns tool failures into results; reaching here is a bug, reported the same way.
      if (error instanceof ToolError) return failure(error.code, error.message);
      options.log(`tool ${params.tool} threw: ${error instanceof Error ? error.stack : String(error)}`);
      return failure("io_error", `the ${params.tool} tool failed unexpectedly`);
    } finally {
      progress.close();
    }
  };
