import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { AgentEnv } from "../../config";
import type { RuleConfig } from "../permissions/rules";

export type ProviderName = "openai-compatible" | "anthropic" | "openai";

export interface AgentConfig {
  providers: {
    "openai-compatible"?: { baseURL: string; apiKey?: string };
    anthropic?: { apiKey: string; baseURL?: string };
    openai?: { apiKey: string; baseURL?: string };
  };
  /** Models named in the configuration, as `provider/model`. */
  models: string[];
  defaultModel?: string;
  permissions: RuleConfig;
  experimental: { batch_tool: boolean; websearch: boolean };
  /** Whether the agent may fetch web pages at all (it still asks by default). */
  webfetch: boolean;
  websearch: { apiKey?: string; endpoint: string };
}

/** The optional configuration file in the data folder (`CODER_AGENT_CONFIG` names another). */
export const CONFIG_FILE = "agent.json";

const action = z.enum(["allow", "ask", "deny"]);
const fileSchema = z.strictObject({
  models: z.array(z.string().min(1)).optional(),
  defaultModel: z.string().min(1).optional(),
  providers: z
    .strictObject({
      "openai-compatible": z.strictObject({ baseURL: z.url(), apiKey: z.string().optional() }).optional(),
      anthropic: z.strictObject({ apiKey: z.string().min(1), baseURL: z.url().optional() }).optional(),
      openai: z.strictObject({ apiKey: z.string().min(1), baseURL: z.url().optional() }).optional(),
    })
    .optional(),
  permissions: z
    .record(z.string(), z.record(z.string(), z.union([action, z.record(z.string(), action)])))
    .optional(),
  experimental: z
    .strictObject({ batch_tool: z.boolean().optional(), websearch: z.boolean().optional() })
    .optional(),
  webfetch: z.boolean().optional(),
  websearch: z.strictObject({ apiKey: z.string().optional(), endpoint: z.url().optional() }).optional(),
});
type FileConfig = z.infer<typeof fileSchema>;

/** Brave's web search API; any endpoint answering the same shape works. */
const DEFAULT_SEARCH_ENDPOINT = "https://api.search.brave.com/res/v1/web/search";

/** `name` alone means the OpenAI-compatible provider; `anthropic/x` and `openai/x` name the others. */
export function qualifyModel(entry: string): string {
  const slash = entry.indexOf("/");
  const provider = slash === -1 ? "" : entry.slice(0, slash);
  return ["openai-compatible", "anthropic", "openai"].includes(provider)
    ? entry
    : `openai-compatible/${entry}`;
}

function readFile(file: string, required: boolean): FileConfig {
  if (!existsSync(file)) {
    if (required) throw new Error(`CODER_AGENT_CONFIG names ${file}, which does not exist`);
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(top)"}: ${i.message}`);
    throw new Error(`${file} is not a valid agent configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/**
 * The agent's configuration: the environment's settings (parsed once with the rest, in config.ts)
 * over the JSON file (`agent.json` in the data folder, or the one `CODER_AGENT_CONFIG` names).
 */
export function loadAgentConfig(env: AgentEnv, dataDir: string): AgentConfig {
  const file = env.configFile
    ? readFile(env.configFile, true)
    : readFile(path.join(dataDir, CONFIG_FILE), false);
  const providers: AgentConfig["providers"] = { ...file.providers };
  const compatible = env.openAiCompatible;
  if (compatible.baseURL) {
    const apiKey = compatible.apiKey ?? providers["openai-compatible"]?.apiKey;
    providers["openai-compatible"] = { baseURL: compatible.baseURL, ...(apiKey ? { apiKey } : {}) };
  }
  if (env.anthropicApiKey) providers.anthropic = { ...providers.anthropic, apiKey: env.anthropicApiKey };
  if (env.openAiApiKey) providers.openai = { ...providers.openai, apiKey: env.openAiApiKey };

  const models = [...new Set([...env.models, ...(file.models ?? [])].map(qualifyModel))];
  const defaultModel = env.defaultModel ?? file.defaultModel;
  const searchKey = env.websearchApiKey ?? file.websearch?.apiKey;
  return {
    providers,
    models,
    ...(defaultModel ? { defaultModel: qualifyModel(defaultModel) } : {}),
    permissions: file.permissions ?? {},
    experimental: {
      batch_tool: env.experimental.batch_tool ?? file.experimental?.batch_tool ?? false,
      websearch: env.experimental.websearch ?? file.experimental?.websearch ?? false,
    },
    webfetch: file.webfetch ?? true,
    websearch: {
      ...(searchKey ? { apiKey: searchKey } : {}),
      endpoint: file.websearch?.endpoint ?? DEFAULT_SEARCH_ENDPOINT,
    },
  };
}
