import type { z } from "zod";
import type { ToolFacts } from "./facts";
import type { SaveOutput } from "./spill";

/** Error codes of the tool contract (spec §1). */
export type ToolErrorCode =
  | "unknown_tool"
  | "invalid_args"
  | "permission_denied"
  | "not_found"
  | "is_directory"
  | "binary_file"
  | "conflict"
  | "stale_file"
  | "timeout"
  | "unavailable"
  | "io_error"
  | "rejected"
  | "aborted";

export interface ToolErrorBody {
  code: ToolErrorCode;
  message: string;
  hint?: string;
}

/** Every tool returns a plain JSON object with `ok`; failures carry `error`. */
export type ToolResult = { ok: boolean; error?: ToolErrorBody } & Record<string, unknown>;

/** Thrown inside a tool (or a helper it calls) to end the call with a typed error. */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly hint?: string,
    /** Extra fields to put on the failed result (e.g. `server_status`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export interface PermissionRequest {
  permission: string;
  patterns: string[];
  title: string;
}

/** A file as a session last read or wrote it (read-before-write). */
export interface FileRecord {
  mtimeMs: number;
  size: number;
  /** The text (LF) the session knows, when the file was small enough to keep it. */
  text?: string;
}

/** What a session remembers between calls: files read (for read-before-write) and its todos. */
export interface SessionState {
  readonly id: string;
  /** Absolute real path → the file as the session last read or wrote it. */
  readonly files: Map<string, FileRecord>;
  todos: TodoItem[];
}

export interface TodoItem {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority: "high" | "medium" | "low";
}

export interface ToolContext {
  sessionId: string;
  messageId: string;
  callId: string;
  agent: string;
  /** Absolute real path of the workspace root. */
  workspaceRoot: string;
  abort: AbortSignal;
  /** Streams progress to the UI while the tool runs (bash output so far, patch progress). */
  metadata(update: Record<string, unknown>): void;
  /** Asks the person for a permission; resolves when granted, throws ToolError("rejected") otherwise. */
  ask(request: PermissionRequest): Promise<void>;
  session: SessionState;
  /**
   * The folder of full outputs that were cut for the model (outside the workspace); `read` and
   * `grep` may reach it.
   */
  spillDir: string;
  /** Keeps a cut output's full text elsewhere than in spillDir (default: a file there). */
  saveOutput?: SaveOutput;
  /** Deployment settings the tools read (skills paths, experimental flags, limits). */
  config: ToolsConfig;
  /**
   * Runners for the tools that need the agent runtime or a person (task, question, plan_exit,
   * webfetch, websearch, batch, preview). Absent ones make those tools answer `unavailable`.
   */
  services?: AgentServices;
}

/** What the agent runtime plugs in for the tools it handles itself. */
export interface AgentServices {
  task?(args: { agent: string; objective: string }, ctx: ToolContext): Promise<{ summary: string }>;
  question?(
    args: { questions: { question: string; options: string[]; multiple?: boolean }[] },
    ctx: ToolContext,
  ): Promise<{ answers: string[][] }>;
  planExit?(ctx: ToolContext): Promise<{ approved: boolean }>;
  webfetch?(
    args: { url: string; format: "markdown" | "text" | "html"; timeout?: number },
    ctx: ToolContext,
  ): Promise<{ url: string; content_type: string; content: string }>;
  websearch?(
    args: { query: string; num_results?: number },
    ctx: ToolContext,
  ): Promise<{ results: unknown[] }>;
  batch?(
    args: { tool_calls: { tool: string; parameters: Record<string, unknown> }[] },
    ctx: ToolContext,
  ): Promise<{ results: unknown[] }>;
  preview?(args: { port: number; path: string; screenshot: boolean }, ctx: ToolContext): Promise<PreviewPage>;
}

/** A page the workspace serves, as a browser beside it saw it (`preview`). */
export interface PreviewPage {
  /** Where the browser ended up (after redirects). */
  url: string;
  /** The HTTP status of the page itself; null when the browser got none (a page from its cache). */
  status: number | null;
  title: string;
  /** The visible text, cut at a bound (`text_truncated`). */
  text: string;
  text_truncated: boolean;
  /** Console errors and uncaught exceptions, the first ones up to a bound. */
  console_errors: string[];
  /** Requests that failed or answered 400 and up, the first ones up to a bound. */
  failed_requests: { url: string; reason: string }[];
  /** A PNG of the viewport, base64, when one was asked for. */
  screenshot?: { media_type: "image/png"; width: number; height: number; data: string };
  /** Why a screenshot that was asked for is missing. */
  screenshot_note?: string;
}

export interface ToolsConfig {
  skills?: { paths?: string[] };
  experimental?: { batch_tool?: boolean; websearch?: boolean };
  /** false: the deployment switched web fetching off. */
  webfetch?: boolean;
  /** A web search API key is configured (the service's own: a workspace never has one). */
  searchConfigured?: boolean;
  /** The home folder used for `~/.coder/skills` (defaults to os.homedir()). */
  homeDir?: string;
  bash?: { output_limit_bytes?: number };
  /** The workspace root as the model should see it in tool descriptions (`${workspace}`). */
  workspaceRoot?: string;
  /** The ripgrep binary for glob/grep (default `rg` on PATH); `false` uses the built-in search. */
  ripgrep?: string | false;
  /** Allow-lists per agent name (`*` and `prefix_*` patterns), added to or replacing the defaults. */
  agents?: Record<string, string[]>;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  id: string;
  /** The description with `${var}` placeholders, from `<id>.txt` beside the tool. */
  description: string;
  parameters: S;
  /** Where it runs and which workspace files it reads and may change. */
  facts: ToolFacts<z.infer<S>>;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
  /** Turns the result into the text the model reads. Defaults to pretty JSON. */
  format?(result: ToolResult, args: z.infer<S>): string;
  /** The permission this call needs, if any (spec §2 approvalRequest). */
  approval?(args: z.infer<S>): PermissionRequest | undefined;
  /** Only offered when this returns true for the deployment's config. */
  enabled?(config: ToolsConfig): boolean;
  /** Values for this tool's `${var}` placeholders, besides the shared ones (`${workspace}`, ...). */
  templateVars?(config: ToolsConfig): Record<string, string | number>;
  /** The tool bounds its own output (e.g. `read` pages), so the registry neither cuts nor spills it. */
  ownsTruncation?: boolean;
  /** Executable but never offered to a model (`invalid`, the target of unusable calls). */
  hidden?: boolean;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

export function fail(code: ToolErrorCode, message: string, hint?: string): ToolResult {
  return hint === undefined
    ? { ok: false, error: { code, message } }
    : { ok: false, error: { code, message, hint } };
}
