import type { WorkspacePort } from "../workspace/workspace-port";

/** AGENTS.md larger than this is left out of the prompt. */
const MAX_AGENTS_MD_BYTES = 64 * 1024;

export interface WorkspaceContext {
  agentsMd?: string;
  skills: { name: string; description: string }[];
}

/**
 * What the workspace adds to the prompt: its AGENTS.md and its skills. Neither is required, so a
 * failure to read them leaves them out rather than failing the turn.
 */
export async function readWorkspaceContext(
  workspace: WorkspacePort,
  call: { sessionId: string; callId: string; agent: string; messageId: string },
  signal: AbortSignal,
): Promise<WorkspaceContext> {
  const [agentsMd, skills] = await Promise.all([
    workspace.readText("AGENTS.md", MAX_AGENTS_MD_BYTES).catch(() => undefined),
    workspace
      .executeTool({ ...call, tool: "skill", args: { action: "list" } }, () => {}, signal)
      .then(({ result }) =>
        result.ok && Array.isArray(result.skills)
          ? (result.skills as { name?: unknown; description?: unknown }[])
              .filter((s) => typeof s.name === "string")
              .map((s) => ({ name: String(s.name), description: String(s.description ?? "") }))
          : [],
      )
      .catch(() => []),
  ]);
  return { ...(agentsMd ? { agentsMd } : {}), skills };
}
