import { type ToolDefinition, type ToolsExecuteResult, toolName } from "@coder/protocol";
import { z } from "zod";
import { DaemonCallError } from "../../daemon/daemon-connection";
import { ServiceError } from "../../errors/service-error";
import { cutText, jsonSize, shrinkJson } from "./bounded-json";
import type { WorkspacePort } from "./workspace-port";

/**
 * What the service keeps of a workspace daemon's answers before storing them and sending them to
 * the model. Their shape and outer bounds were checked against the daemon contract on arrival
 * (DaemonConnection); these are the tighter budgets of a model's context and the session's store.
 */
export const DAEMON_ANSWER_LIMITS = {
  /** Tools kept from one list; the rest are dropped. */
  tools: 64,
  /** A tool's description is cut here. */
  descriptionChars: 8 * 1024,
  /** A tool whose JSON Schema is larger is dropped (a schema cannot be cut). */
  schemaChars: 16 * 1024,
  /** Tools stop being added once the list is this large. */
  listChars: 256 * 1024,
  /** The text the model reads of one call (the daemon cuts its own at 50 KB plus a hint). */
  outputChars: 64 * 1024,
  /** The structured result of one call, stored and shown in the UI. */
  resultChars: 256 * 1024,
  /** One live-progress update of a running call. */
  progressChars: 128 * 1024,
  /** All live-progress updates of one call together; later ones are dropped. */
  progressTotalChars: 2 * 1024 * 1024,
  /** The message of an error the daemon answers a request with. */
  errorChars: 4096,
} as const;

const L = DAEMON_ANSWER_LIMITS;

const definition = z.object({
  id: toolName,
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});

/** The workspace answered with something the service cannot use (a message for a person). */
export class DaemonAnswerError extends ServiceError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/**
 * The port with every daemon answer within the agent's budgets: a tool list is cut to what the
 * model can be offered, oversized text is cut with a marker, and live progress is limited per
 * update and per call. Nothing a daemon sends can make the service store or forward more than
 * these limits, or throw anything but a plain error.
 */
export function boundedWorkspace(port: WorkspacePort, log: (line: string) => void): WorkspacePort {
  return {
    ...port,
    async listTools(filter) {
      return boundToolList(await shortErrors(() => port.listTools(filter)), log);
    },
    async executeTool(call, onProgress, signal, prompter) {
      const progress = boundProgress(call.tool, onProgress, log);
      const answer = await shortErrors(() => port.executeTool(call, progress, signal, prompter));
      return boundExecution(call.tool, answer, log);
    },
    saveOutput: (callId, text) => shortErrors(() => port.saveOutput(callId, text)),
    async readText(path, maxBytes) {
      const text = await port.readText(path, maxBytes);
      return typeof text === "string" ? text.slice(0, maxBytes) : undefined;
    },
  };
}

/** Runs a daemon request; the message of an error the daemon answered with is cut to size. */
async function shortErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DaemonCallError && error.message.length > L.errorChars) {
      throw new DaemonCallError(error.code, cutText(error.message, L.errorChars));
    }
    throw error;
  }
}

/** The definitions worth offering, in order: valid ones, descriptions cut, within the budgets. */
export function boundToolList(answer: unknown, log: (line: string) => void): ToolDefinition[] {
  if (!Array.isArray(answer)) {
    log("workspace daemon: tools.list answered something that is not a list");
    throw new DaemonAnswerError("the workspace answered the tool list with something that is not one");
  }
  const kept: ToolDefinition[] = [];
  const ids = new Set<string>();
  let size = 0;
  for (const raw of answer.slice(0, L.tools)) {
    const parsed = definition.safeParse(raw);
    if (!parsed.success || ids.has(parsed.data.id)) continue;
    const schemaSize = jsonSize(parsed.data.parameters);
    if (schemaSize > L.schemaChars) continue;
    const description = cutText(parsed.data.description, L.descriptionChars);
    size += parsed.data.id.length + description.length + schemaSize;
    if (size > L.listChars) break;
    ids.add(parsed.data.id);
    kept.push({ ...parsed.data, description });
  }
  const dropped = answer.length - kept.length;
  if (dropped > 0) log(`workspace daemon: dropped ${dropped} unusable or excess tool(s) from its list`);
  return kept;
}

/** A tool's answer as the service stores it and the model reads it. */
export function boundExecution(
  tool: string,
  answer: ToolsExecuteResult,
  log: (line: string) => void,
): ToolsExecuteResult {
  const { result, output } = answer;
  const size = jsonSize(result);
  let bounded = result;
  if (size > L.resultChars) {
    log(`workspace daemon: ${tool} answered a ${size}-character result; shortened`);
    const { ok, error, ...fields } = result;
    bounded = {
      ...(shrinkJson(fields, L.resultChars / 2) as Record<string, unknown>),
      ok,
      ...(error ? { error: shrinkJson(error, L.resultChars / 4) as typeof error } : {}),
      cut_by_service: `the result was ${size} characters; long fields were shortened`,
    };
  }
  return { result: bounded, output: cutText(output, L.outputChars) };
}

/**
 * Live progress within bounds: an update that is too large is shortened, one that repeats the last is skipped (bash repeats its capped output while a command
 * keeps printing), and once a call's updates add up to the total, the rest wait for the result.
 */
function boundProgress(
  tool: string,
  onProgress: (update: Record<string, unknown>) => void,
  log: (line: string) => void,
): (update: Record<string, unknown>) => void {
  let total = 0;
  let last = "";
  let exhausted = false;
  return (update) => {
    if (exhausted) return;
    let json = JSON.stringify(update);
    let bounded = update;
    if (json.length > L.progressChars) {
      bounded = shrinkJson(update, L.progressChars / 2) as Record<string, unknown>;
      json = JSON.stringify(bounded);
    }
    if (json === last) return;
    if (total + json.length > L.progressTotalChars) {
      exhausted = true;
      log(
        `workspace daemon: ${tool} sent more live output than one call may store; the rest waits for the result`,
      );
      return;
    }
    total += json.length;
    last = json;
    onProgress(bounded);
  };
}
