import { type ToolFacts, UNKNOWN_TOOL_FACTS } from "../framework/facts";
import { createRegistry, type Registry } from "../framework/registry";
import type { Tool, ToolsConfig } from "../framework/types";
import { applyPatchTool } from "./apply_patch";
import { bashTool } from "./bash";
import { batchTool } from "./batch";
import { editTool } from "./edit";
import { globTool } from "./glob";
import { grepTool } from "./grep";
import { invalidTool } from "./invalid";
import { listTool } from "./list";
import { lspDefinitionTool } from "./lsp_definition";
import { lspDiagnosticsTool } from "./lsp_diagnostics";
import { lspHoverTool } from "./lsp_hover";
import { patchTool } from "./patch";
import { planExitTool } from "./plan_exit";
import { previewTool } from "./preview";
import { questionTool } from "./question";
import { readTool } from "./read";
import { skillTool } from "./skill";
import { taskTool } from "./task";
import { todoreadTool } from "./todoread";
import { todowriteTool } from "./todowrite";
import { webfetchTool } from "./webfetch";
import { websearchTool } from "./websearch";
import { writeTool } from "./write";

/** Every tool of the contract, in the order they are offered to a model. */
export const BUILTIN_TOOLS: readonly Tool[] = [
  readTool,
  listTool,
  globTool,
  grepTool,
  editTool,
  writeTool,
  patchTool,
  applyPatchTool,
  bashTool,
  lspDiagnosticsTool,
  lspDefinitionTool,
  lspHoverTool,
  todoreadTool,
  todowriteTool,
  skillTool,
  taskTool,
  questionTool,
  webfetchTool,
  websearchTool,
  previewTool,
  batchTool,
  planExitTool,
  invalidTool,
] as Tool[];

/** A registry with all built-in tools; more can be registered at run time. */
export function createDefaultRegistry(config: ToolsConfig = {}): Registry {
  const registry = createRegistry(config);
  for (const tool of BUILTIN_TOOLS) registry.register(tool);
  return registry;
}

/** The facts of a built-in tool; a tool the contract does not know may read and change anything. */
export function builtinFacts(id: string): ToolFacts {
  return BUILTIN_TOOLS.find((tool) => tool.id === id)?.facts ?? UNKNOWN_TOOL_FACTS;
}
