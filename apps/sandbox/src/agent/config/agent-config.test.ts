import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { CONFIG_FILE, loadAgentConfig } from "./agent-config";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "coder-agent-config-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The agent's part of the service configuration, parsed from these variables alone. */
const env = (variables: Record<string, string> = {}) =>
  loadConfig({ CODER_IMAGE: "img", ...variables }).agent;

const writeConfig = (value: unknown, name = CONFIG_FILE) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
};

describe("the agent configuration", () => {
  it("is empty without environment or file: no model, web fetching on, experiments off", () => {
    expect(loadAgentConfig(env(), dir)).toEqual({
      providers: {},
      models: [],
      permissions: {},
      experimental: { batch_tool: false, websearch: false },
      webfetch: true,
      websearch: { endpoint: "https://api.search.brave.com/res/v1/web/search" },
    });
  });

  it("reads providers and models from the environment", () => {
    const config = loadAgentConfig(
      env({
        CODER_OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
        CODER_OPENAI_COMPATIBLE_API_KEY: "local-key",
        CODER_MODELS: "qwen3-coder, anthropic/claude-opus-4-1 ,Qwen/Qwen2.5-Coder-32B",
        ANTHROPIC_API_KEY: "sk-ant",
        OPENAI_API_KEY: "sk-openai",
        CODER_DEFAULT_MODEL: "qwen3-coder",
        CODER_EXPERIMENTAL_BATCH_TOOL: "1",
      }),
      dir,
    );
    expect(config.providers).toEqual({
      "openai-compatible": { baseURL: "http://localhost:11434/v1", apiKey: "local-key" },
      anthropic: { apiKey: "sk-ant" },
      openai: { apiKey: "sk-openai" },
    });
    expect(config.models).toEqual([
      "openai-compatible/qwen3-coder",
      "anthropic/claude-opus-4-1",
      "openai-compatible/Qwen/Qwen2.5-Coder-32B",
    ]);
    expect(config.defaultModel).toBe("openai-compatible/qwen3-coder");
    expect(config.experimental.batch_tool).toBe(true);
  });

  it("reads agent.json in the data folder, the environment taking precedence", () => {
    writeConfig({
      models: ["llama3"],
      providers: { "openai-compatible": { baseURL: "http://file.example/v1", apiKey: "from-file" } },
      permissions: { build: { bash: { "*": "ask", "git status*": "allow" } } },
      experimental: { websearch: true },
      websearch: { apiKey: "search-key" },
      webfetch: false,
    });
    const config = loadAgentConfig(env({ CODER_OPENAI_COMPATIBLE_BASE_URL: "http://env.example/v1" }), dir);
    expect(config.providers["openai-compatible"]).toEqual({
      baseURL: "http://env.example/v1",
      apiKey: "from-file",
    });
    expect(config.models).toEqual(["openai-compatible/llama3"]);
    expect(config.permissions).toEqual({ build: { bash: { "*": "ask", "git status*": "allow" } } });
    expect(config.experimental.websearch).toBe(true);
    expect(config.websearch.apiKey).toBe("search-key");
    expect(config.webfetch).toBe(false);
  });

  it("reads the file CODER_AGENT_CONFIG names instead", () => {
    const file = writeConfig({ models: ["elsewhere"] }, "other.json");
    writeConfig({ models: ["ignored"] });
    expect(loadAgentConfig(env({ CODER_AGENT_CONFIG: file }), dir).models).toEqual([
      "openai-compatible/elsewhere",
    ]);
    expect(() => loadAgentConfig(env({ CODER_AGENT_CONFIG: path.join(dir, "missing.json") }), dir)).toThrow(
      /does not exist/,
    );
  });

  it("says what is wrong with an unusable file", () => {
    writeConfig("{ not json");
    expect(() => loadAgentConfig(env(), dir)).toThrow(/is not valid JSON/);
    writeConfig({ permissions: { build: { bash: "sometimes" } }, colour: "blue" });
    expect(() => loadAgentConfig(env(), dir)).toThrow(
      /permissions\.build\.bash[\s\S]*colour|colour[\s\S]*permissions\.build\.bash/,
    );
  });

  it("refuses a base URL that is not a URL, naming the variable", () => {
    expect(() => env({ CODER_OPENAI_COMPATIBLE_BASE_URL: "localhost:11434" })).toThrow(
      /CODER_OPENAI_COMPATIBLE_BASE_URL: is not a URL/,
    );
  });

  it("lets an experiment the environment turns off stay off whatever the file says", () => {
    writeConfig({ experimental: { websearch: true, batch_tool: true } });
    expect(loadAgentConfig(env({ CODER_EXPERIMENTAL_WEBSEARCH: "off" }), dir).experimental).toEqual({
      websearch: false,
      batch_tool: true,
    });
  });
});
