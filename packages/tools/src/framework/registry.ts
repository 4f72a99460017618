import { type DefinitionFilter, isOffered } from "./availability";
import { type Execution, executeTool } from "./execute";
import { formatError } from "./format";
import type { JsonSchema } from "./json-schema";
import { type PromptFormat, renderToolsPrompt, type ToolDefinition } from "./prompt";
import { renderDescription } from "./template";
import { fail, type PermissionRequest, type Tool, type ToolContext, type ToolsConfig } from "./types";
import { validateDefinition } from "./validate";

export interface Registry {
  /** Adds a tool at run time; throws ToolDefinitionError for an unusable definition. */
  register(tool: Tool): void;
  unregister(id: string): boolean;
  get(id: string): Tool | undefined;
  ids(): string[];
  /** The definitions one agent on one model may use, descriptions rendered. */
  definitions(filter?: DefinitionFilter): ToolDefinition[];
  /** The permission a call needs, or undefined (unknown tool or unusable arguments included). */
  approvalRequest(name: string, args: unknown): PermissionRequest | undefined;
  execute(name: string, args: unknown, ctx: ToolContext): Promise<Execution>;
  prompt(definitions: readonly ToolDefinition[], format: PromptFormat): string;
}

export function createRegistry(config: ToolsConfig = {}): Registry {
  const tools = new Map<string, { tool: Tool; parameters: JsonSchema }>();

  return {
    register(tool) {
      const parameters = validateDefinition(tool, tools);
      tools.set(tool.id, { tool, parameters });
    },
    unregister: (id) => tools.delete(id),
    get: (id) => tools.get(id)?.tool,
    ids: () => [...tools.keys()],

    definitions(filter = {}) {
      return [...tools.values()]
        .filter(({ tool }) => isOffered(tool, filter, config))
        .map(({ tool, parameters }) => ({
          id: tool.id,
          description: renderDescription(tool, config),
          parameters,
        }));
    },

    approvalRequest(name, args) {
      const tool = tools.get(name)?.tool;
      if (!tool?.approval) return undefined;
      const parsed = tool.parameters.safeParse(args ?? {});
      return parsed.success ? tool.approval(parsed.data) : undefined;
    },

    async execute(name, args, ctx) {
      const entry = tools.get(name);
      if (!entry) {
        const offered = [...tools.values()]
          .filter(({ tool }) => isOffered(tool, { agent: ctx.agent }, config))
          .map(({ tool }) => tool.id);
        const result = fail(
          "unknown_tool",
          `there is no tool named "${name}"`,
          `use one of: ${offered.join(", ")}`,
        );
        return { result, output: formatError(result) };
      }
      return executeTool(entry.tool, args, ctx);
    },

    prompt: renderToolsPrompt,
  };
}
