import type { ToolPart } from "@coder/protocol";
import { builtinFacts, filesReached } from "@coder/tools";
import { agentActor } from "../../audit/audit-entry";
import type { TurnState } from "../loop/turn-state";
import type { Outcome } from "./outcome";

const NOBODY = { kind: "agent", id: null, name: "agent" } as const;

/**
 * Puts a tool call that ran a command or may have changed files on the audit trail: who the agent
 * worked for, the command or the paths, and how it ended (a shell's exit code). Reading calls are
 * not recorded.
 */
export function auditToolCall(turn: TurnState, part: ToolPart, outcome: Outcome): void {
  const record = turn.deps.audit;
  const facts = builtinFacts(part.tool);
  if (!record || facts.changes === "none") return;
  const args = (part.input ?? {}) as Record<string, unknown>;
  const paths = filesReached(facts.changes, args);
  const { result } = outcome;
  record({
    actor: turn.root.promptedBy ? agentActor(turn.root.promptedBy) : NOBODY,
    action: "agent.tool_call",
    workspaceId: turn.session.workspaceId,
    target: part.tool,
    detail: {
      sessionId: turn.session.id,
      ...(typeof args.command === "string" ? { command: args.command } : {}),
      ...(paths === "any" ? {} : { paths }),
      ok: result.ok,
      ...(typeof result.exit_code === "number" ? { exitCode: result.exit_code } : {}),
      ...(result.error ? { error: result.error.code } : {}),
    },
  });
}
