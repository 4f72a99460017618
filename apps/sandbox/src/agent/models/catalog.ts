import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelInfo, ModelList } from "@coder/protocol";
import { ServiceError } from "../../errors/service-error";
import type { AgentConfig, ProviderName } from "../config/agent-config";
import type { ProviderModel } from "../loop/retrying-model";

/** Offered when a provider's key is set but no model of it is named. */
const DEFAULT_MODELS: Partial<Record<ProviderName, string>> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5",
};

const PROVIDER_LABELS: Record<ProviderName, string> = {
  "openai-compatible": "OpenAI-compatible",
  anthropic: "Anthropic",
  openai: "OpenAI",
};

/** How long a model list fetched from an OpenAI-compatible server is reused. */
const DISCOVERY_TTL_MS = 60_000;

export const SETUP_HINT =
  "No model is configured. Set CODER_OPENAI_COMPATIBLE_BASE_URL (and CODER_MODELS) for an " +
  "OpenAI-compatible server such as Ollama, vLLM or LM Studio, or ANTHROPIC_API_KEY or " +
  "OPENAI_API_KEY, and restart the service (or write agent.json in the data folder).";

/** A model was asked for that cannot be used; the message says what to do. */
export class ModelConfigError extends ServiceError {
  constructor(message: string) {
    super("precondition", message);
  }
}

function split(id: string): { provider: ProviderName; name: string } {
  const slash = id.indexOf("/");
  return { provider: id.slice(0, slash) as ProviderName, name: id.slice(slash + 1) };
}

function info(id: string): ModelInfo {
  const { provider, name } = split(id);
  return { id, provider, name, label: `${name} · ${PROVIDER_LABELS[provider]}` };
}

/** The models the deployment offers and the AI SDK model objects behind them. */
export class ModelCatalog {
  private discovered: { at: number; ids: string[] } | undefined;
  private readonly instances = new Map<ProviderName, (name: string) => ProviderModel>();

  constructor(
    private readonly config: AgentConfig,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async list(): Promise<ModelList> {
    const configured = this.config.models.filter((id) => {
      const usable = this.config.providers[split(id).provider] !== undefined;
      if (!usable) this.log(`model ${id} is listed but its provider is not configured; skipped`);
      return usable;
    });
    const ids = [...configured];
    for (const provider of Object.keys(this.config.providers) as ProviderName[]) {
      if (ids.some((id) => split(id).provider === provider)) continue;
      const fallback = DEFAULT_MODELS[provider];
      if (fallback) ids.push(`${provider}/${fallback}`);
      else if (provider === "openai-compatible") ids.push(...(await this.discover()));
    }
    const models = ids.map(info);
    const preferred = this.config.defaultModel;
    const defaultModel = preferred && ids.includes(preferred) ? preferred : (ids[0] ?? null);
    return { models, defaultModel, ...(models.length === 0 ? { setupHint: SETUP_HINT } : {}) };
  }

  /** Asks an OpenAI-compatible server which models it serves (`GET /models`). */
  private async discover(): Promise<string[]> {
    if (this.discovered && Date.now() - this.discovered.at < DISCOVERY_TTL_MS) return this.discovered.ids;
    const settings = this.config.providers["openai-compatible"];
    if (!settings) return [];
    try {
      const res = await fetch(`${settings.baseURL.replace(/\/$/, "")}/models`, {
        headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { data?: { id?: unknown }[] };
      const ids = (body.data ?? [])
        .map((m) => m.id)
        .filter((m): m is string => typeof m === "string" && m.length > 0)
        .map((m) => `openai-compatible/${m}`);
      this.discovered = { at: Date.now(), ids };
      return ids;
    } catch (error) {
      this.log(`could not list the models of ${settings.baseURL}: ${(error as Error).message}`);
      return [];
    }
  }

  /** The model for `id` (null: the default); ModelConfigError when it cannot be used. */
  async resolve(id: string | null): Promise<{ info: ModelInfo; model: ProviderModel }> {
    const list = await this.list();
    const chosen = id ?? list.defaultModel;
    if (!chosen) throw new ModelConfigError(SETUP_HINT);
    const { provider, name } = split(chosen);
    if (!this.config.providers[provider]) {
      throw new ModelConfigError(`the model ${chosen} cannot be used: its provider is not configured`);
    }
    return { info: info(chosen), model: this.factory(provider)(name) };
  }

  private factory(provider: ProviderName): (name: string) => ProviderModel {
    let make = this.instances.get(provider);
    if (make) return make;
    const p = this.config.providers;
    switch (provider) {
      case "openai-compatible": {
        const s = p["openai-compatible"];
        const sdk = createOpenAICompatible({
          name: "openai-compatible",
          baseURL: s?.baseURL ?? "",
          ...(s?.apiKey ? { apiKey: s.apiKey } : {}),
          includeUsage: true,
        });
        make = (name) => sdk.chatModel(name);
        break;
      }
      case "anthropic": {
        const sdk = createAnthropic({ apiKey: p.anthropic?.apiKey ?? "", baseURL: p.anthropic?.baseURL });
        make = (name) => sdk(name);
        break;
      }
      case "openai": {
        const sdk = createOpenAI({ apiKey: p.openai?.apiKey ?? "", baseURL: p.openai?.baseURL });
        make = (name) => sdk(name);
        break;
      }
    }
    this.instances.set(provider, make);
    return make;
  }
}
