import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../../../../e2e/support/model-server";
import type { AgentConfig } from "../config/agent-config";
import { ModelCatalog, ModelConfigError } from "./catalog";

const base: AgentConfig = {
  providers: {},
  models: [],
  permissions: {},
  experimental: { batch_tool: false, websearch: false },
  webfetch: true,
  websearch: { endpoint: "" },
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the model catalog", () => {
  it("is empty with a hint on how to add a model when nothing is configured", async () => {
    const list = await new ModelCatalog(base).list();
    expect(list.models).toEqual([]);
    expect(list.defaultModel).toBeNull();
    expect(list.setupHint).toMatch(/CODER_OPENAI_COMPATIBLE_BASE_URL/);
    await expect(new ModelCatalog(base).resolve(null)).rejects.toBeInstanceOf(ModelConfigError);
  });

  it("offers a default model for a provider with a key and no model named", async () => {
    const catalog = new ModelCatalog({
      ...base,
      providers: { anthropic: { apiKey: "k" }, openai: { apiKey: "k" } },
    });
    const list = await catalog.list();
    expect(list.models.map((m) => m.id)).toEqual(["anthropic/claude-sonnet-4-5", "openai/gpt-5"]);
    expect(list.models[0]?.label).toBe("claude-sonnet-4-5 · Anthropic");
    const { info, model } = await catalog.resolve("openai/gpt-5");
    expect(info.provider).toBe("openai");
    expect(typeof model === "object" && model.modelId).toBe("gpt-5");
  });

  it("asks an OpenAI-compatible server which models it has when none is named", async () => {
    server = await startModelServer({ models: ["qwen3-coder", "llama3.2"] });
    const catalog = new ModelCatalog({
      ...base,
      providers: { "openai-compatible": { baseURL: server.baseURL } },
    });
    const list = await catalog.list();
    expect(list.models.map((m) => m.id)).toEqual([
      "openai-compatible/qwen3-coder",
      "openai-compatible/llama3.2",
    ]);
    expect(list.defaultModel).toBe("openai-compatible/qwen3-coder");
  });

  it("skips models whose provider is not configured and honours the default", async () => {
    const logs: string[] = [];
    const catalog = new ModelCatalog(
      {
        ...base,
        providers: { "openai-compatible": { baseURL: "http://127.0.0.1:9/v1" } },
        models: ["openai-compatible/a", "openai-compatible/b", "anthropic/claude-x"],
        defaultModel: "openai-compatible/b",
      },
      (line) => logs.push(line),
    );
    const list = await catalog.list();
    expect(list.models.map((m) => m.id)).toEqual(["openai-compatible/a", "openai-compatible/b"]);
    expect(list.defaultModel).toBe("openai-compatible/b");
    expect(logs.join("\n")).toMatch(/anthropic\/claude-x .* not configured/);
    await expect(catalog.resolve("anthropic/claude-x")).rejects.toThrow(/provider is not configured/);
  });

  it("lists nothing, and says why in the log, when the server cannot be asked", async () => {
    const logs: string[] = [];
    const catalog = new ModelCatalog(
      { ...base, providers: { "openai-compatible": { baseURL: "http://127.0.0.1:9/v1" } } },
      (l) => logs.push(l),
    );
    expect((await catalog.list()).models).toEqual([]);
    expect(logs[0]).toMatch(/could not list the models/);
  });
});
