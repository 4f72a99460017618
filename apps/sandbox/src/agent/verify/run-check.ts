import type { WorkspacePort } from "../workspace/workspace-port";

export interface CheckResult {
  passed: boolean;
  /** What the model would have read of the command's output. */
  output: string;
}

/**
 * Runs the check command through the workspace's bash tool (the same limits as the agent's calls),
 * once checkPermission said it may.
 */
export async function runCheck(
  workspace: WorkspacePort,
  command: string,
  call: { sessionId: string; messageId: string; callId: string },
  signal: AbortSignal,
): Promise<CheckResult> {
  const { result, output } = await workspace.executeTool(
    {
      tool: "bash",
      args: { command, description: "auto-verify" },
      sessionId: call.sessionId,
      callId: call.callId,
      agent: "build",
      messageId: call.messageId,
    },
    () => {},
    signal,
  );
  return { passed: result.ok, output };
}
