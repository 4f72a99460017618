import { newId } from "../ids";
import { runTurn, type TurnInput } from "../loop/turn";
import { startTurn } from "../loop/turn-start";
import { checkPermission } from "./check-permission";
import { onlyDocumentation } from "./documentation";
import { runCheck } from "./run-check";
import { readVerifyConfig } from "./verify-config";

/** The most of a failed check's output handed to the agent (its end, where errors are). */
const MAX_FEEDBACK_CHARS = 20_000;

function feedback(command: string, output: string, attempt: number, max: number): string {
  const tail = output.length > MAX_FEEDBACK_CHARS ? `…${output.slice(-MAX_FEEDBACK_CHARS)}` : output;
  return [
    `The workspace's check \`${command}\` failed after your changes (attempt ${attempt} of ${max}). Its output:`,
    "",
    "```",
    tail.trimEnd(),
    "```",
    "",
    "Fix what it reports, so that the check passes.",
  ].join("\n");
}

/**
 * Runs a prompt's turn, then auto-verify: when the turn changed files (not only documentation)
 * and the workspace's `.coder/config.json` names a check command, the command runs — if the agent's
 * bash rules (or the person, where they ask) allow it; a failure goes back to the agent as a new
 * prompt, as long as attempts are left. Each run, or skipped run, is an event.
 */
export async function runVerifiedTurns(input: TurnInput): Promise<void> {
  const { deps, store, recorder, signal } = input;
  const workspace = deps.workspace(input.session.workspaceId);
  const log = (line: string) => deps.logLine(`session ${input.session.id}: ${line}`);
  let current = input;
  for (let attempt = 1; ; attempt++) {
    const outcome = await runTurn(current);
    const snapshots = outcome.snapshots;
    if (outcome.status !== "done" || !snapshots || snapshots.before === snapshots.after) return;
    const config = await readVerifyConfig(workspace, log);
    if (!config) return;
    const changed = await workspace.snapshots.diff(snapshots.before, snapshots.after);
    if (onlyDocumentation(changed.files.map((f) => f.path))) return;

    const callId = newId("prt");
    const agent = (await store.get(input.session.id)).agent;
    const permission = await checkPermission(current, agent, config.command, callId);
    if (permission.kind === "aborted") return;
    if (permission.kind === "skip") {
      log(`check \`${config.command}\` not run: ${permission.reason}`);
      await recorder.emit({
        type: "verify.skipped",
        turnId: current.turn.id,
        attempt,
        command: config.command,
        reason: permission.reason,
      });
      return;
    }
    const check = await runCheck(
      workspace,
      config.command,
      { sessionId: input.session.id, messageId: current.turn.userMessageId, callId },
      signal,
    );
    await recorder.emit({
      type: "verify.finished",
      turnId: current.turn.id,
      attempt,
      command: config.command,
      passed: check.passed,
      output: check.output,
    });
    if (check.passed || attempt >= config.max_attempts || signal.aborted) return;

    const session = await store.get(input.session.id);
    const history = await store.messages(session.id);
    const text = feedback(config.command, check.output, attempt, config.max_attempts);
    const { message, turn } = await startTurn(recorder, session, text);
    current = { ...current, session, turn, history: [...history, message] };
  }
}
