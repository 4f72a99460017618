import type { AgentName, ModelInfo, Session } from "@coder/protocol";
import type { Registry } from "@coder/tools";
import type { AuditActor, RecordAudit } from "../../audit/audit-entry";
import type { Db } from "../../db/database";
import type { PageBrowser } from "../browser/page-browser";
import type { AgentConfig } from "../config/agent-config";
import type { EventLog } from "../events/event-log";
import type { SessionRecorder } from "../events/recorder";
import type { PendingRequests } from "../interaction/pending-requests";
import type { Rule } from "../permissions/rules";
import type { AgentPresence } from "../presence/agent-presence";
import type { AddressPolicy } from "../web/address-policy";
import type { DnsLookup } from "../web/guarded-lookup";
import type { WorkspacePort } from "../workspace/workspace-port";
import type { MessageWriter } from "./message-writer";
import type { RepeatDetector } from "./repeat-detector";
import type { ProviderModel } from "./retrying-model";

/** What every turn shares: the service's parts the runtime is built from. */
export interface RuntimeDeps {
  db: Db;
  events: EventLog;
  config: AgentConfig;
  pending: PendingRequests;
  /** The service's own tools registry (service tools, approval requests). */
  local: Registry;
  workspace(workspaceId: string): WorkspacePort;
  /** Whether a workspace may reach the network (for the prompt). */
  egress(workspaceId: string): Promise<boolean>;
  /** First wait before retrying a failed model call (doubles each time). */
  retryBaseMs: number;
  /** Overrides for webfetch's address checks (tests). */
  web?: { policy?: AddressPolicy; resolve?: DnsLookup };
  logLine(line: string): void;
  /** Shows running turns on the workspace's presence board. */
  presence?: AgentPresence;
  /** The audit trail: tool calls that ran a command or changed files (tools/audited-call.ts). */
  audit?: RecordAudit;
  /** Loads pages a workspace serves (the `preview` tool); without it the tool is unavailable. */
  browser?: Pick<PageBrowser, "load">;
}

export interface ResolvedModel {
  info: ModelInfo;
  model: ProviderModel;
}

/**
 * The session the person looks at. A sub-agent's approvals surface there, and "always" grants
 * belong to it.
 */
export interface RootScope {
  sessionId: string;
  recorder: SessionRecorder;
  /** The session's "always" grants, per agent; shared with the sub-agents it starts. */
  grants: { agent: string; rule: Rule }[];
  /** Who prompted the turn (null: nobody named): the agent works for them, sub-agents too. */
  prompter: string | null;
  /** The same person as the audit trail names them: the agent's calls are recorded as theirs. */
  promptedBy?: AuditActor | null;
}

/** One running turn, as the tool dispatcher and the service tools see it. */
export interface TurnState {
  deps: RuntimeDeps;
  session: Session;
  /** The agent now (plan_exit switches plan → build in the middle of a turn). */
  agent: AgentName;
  model: ResolvedModel;
  workspace: WorkspacePort;
  recorder: SessionRecorder;
  message: MessageWriter;
  root: RootScope;
  signal: AbortSignal;
  /** Tool ids offered to the model in the current step. */
  offered: Set<string>;
  repeats: RepeatDetector;
  /** Permission rules for the current agent: defaults, configuration, this session's grants. */
  rules(): Rule[];
  grant(permission: string, patterns: readonly string[]): Promise<void>;
  switchAgent(agent: AgentName): Promise<void>;
  /**
   * Records the workspace before the turn's first file-changing call (once per turn). Called
   * after the call was approved, so edits the person made while being asked stay theirs.
   */
  beforeFileChange(tool: string): Promise<void>;
  /** Runs a sub-agent in a child session to completion (task). */
  runSubagent(agent: AgentName, objective: string, onSession: (id: string) => void): Promise<string>;
}
