export { DEFAULT_AGENT_TOOLS, type DefinitionFilter, prefersApplyPatch } from "./framework/availability";
export { createToolContext, DEFAULT_SPILL_DIR, type ToolContextOptions } from "./framework/context";
export type { Execution } from "./framework/execute";
export { type FileReach, filesReached, type ToolFacts, UNKNOWN_TOOL_FACTS } from "./framework/facts";
export type { PromptFormat, ToolDefinition } from "./framework/prompt";
export { createRegistry, type Registry } from "./framework/registry";
export { createSessionStore, type SessionStore } from "./framework/session";
export {
  MAX_SPILL_BYTES,
  pruneSpillFolder,
  type SaveOutput,
  SPILL_BUDGET_BYTES,
  SPILL_MAX_AGE_MS,
  spillToFolder,
} from "./framework/spill";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./framework/truncate";
export * from "./framework/types";
export { ToolDefinitionError, type ToolDefinitionErrorKind } from "./framework/validate";
export { checkServers, type LspToolsConfig, stopLspServers } from "./lsp";
export * from "./paths/resolve";
export {
  MAX_RIPGREP_LINE_CHARS,
  type RipgrepOptions,
  type RipgrepRun,
  ripgrepBinary,
  runRipgrep,
  WALK_FLAGS,
} from "./search/ripgrep";
export { bashTimeoutMs } from "./tools/bash";
export { BUILTIN_TOOLS, builtinFacts, createDefaultRegistry } from "./tools/builtin";
