import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSessionState } from "./session";
import type { SaveOutput } from "./spill";
import {
  type AgentServices,
  type PermissionRequest,
  type SessionState,
  type ToolContext,
  ToolError,
  type ToolsConfig,
} from "./types";

/** Where truncated outputs are spilled unless told otherwise: outside any workspace. */
export const DEFAULT_SPILL_DIR = path.join(os.tmpdir(), "coder-tool-output");

export interface ToolContextOptions {
  /** The workspace folder; made absolute and real here. */
  workspaceRoot: string;
  session?: SessionState;
  sessionId?: string;
  messageId?: string;
  callId?: string;
  agent?: string;
  abort?: AbortSignal;
  metadata?: (update: Record<string, unknown>) => void;
  ask?: (request: PermissionRequest) => Promise<void>;
  spillDir?: string;
  saveOutput?: SaveOutput;
  config?: ToolsConfig;
  services?: AgentServices;
}

/**
 * The one way the daemon, the CLI and tests build a ToolContext. Without an `ask`, permission
 * requests are rejected (nobody is there to answer); without an abort signal the call never aborts.
 */
export function createToolContext(options: ToolContextOptions): ToolContext {
  const sessionId = options.session?.id ?? options.sessionId ?? "default";
  return {
    sessionId,
    messageId: options.messageId ?? "message",
    callId: options.callId ?? `call_${randomUUID()}`,
    agent: options.agent ?? "build",
    workspaceRoot: realpathSync(path.resolve(options.workspaceRoot)),
    abort: options.abort ?? new AbortController().signal,
    metadata: options.metadata ?? (() => {}),
    ask:
      options.ask ??
      (async (request) => {
        throw new ToolError("rejected", `no one is available to approve: ${request.title}`);
      }),
    session: options.session ?? createSessionState(sessionId),
    spillDir: path.resolve(options.spillDir ?? DEFAULT_SPILL_DIR),
    config: options.config ?? {},
    ...(options.saveOutput ? { saveOutput: options.saveOutput } : {}),
    ...(options.services ? { services: options.services } : {}),
  };
}
