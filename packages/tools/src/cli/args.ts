import { parseArgs } from "node:util";
import type { ToolsConfig } from "../framework/types";

export type Command =
  | { kind: "help" }
  | { kind: "list"; agent?: string; model?: string; config: ToolsConfig }
  | {
      kind: "run";
      root: string;
      session: string;
      config: ToolsConfig;
      /** One call from the command line; absent: calls come from standard input. */
      call?: { tool: string; args: unknown };
    };

/** A command line that cannot be used; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {}

export function parseCommand(argv: string[]): Command {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") return { kind: "help" };
  const config = parseConfig(values.config);

  if (command === "list") {
    if (rest.length > 0) throw new UsageError(`list takes no arguments, got: ${rest.join(" ")}`);
    return { kind: "list", agent: values.agent, model: values.model, config };
  }
  if (command !== "run") throw new UsageError(`unknown command: ${command}`);
  if (!values.root) throw new UsageError("run needs --root DIR");
  if (rest.length > 2) throw new UsageError(`too many arguments: ${rest.slice(2).join(" ")}`);
  const [tool, json] = rest;
  return {
    kind: "run",
    root: values.root,
    session: values.session ?? "cli",
    config,
    ...(tool === undefined ? {} : { call: { tool, args: json === undefined ? {} : parseJsonArgs(json) } }),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      root: { type: "string" },
      session: { type: "string" },
      config: { type: "string" },
      agent: { type: "string" },
      model: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function parseJsonArgs(json: string): Record<string, unknown> {
  const value = parseJson(json, "the tool arguments");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError('the tool arguments must be a JSON object, e.g. \'{"path": "README.md"}\'');
  }
  return value as Record<string, unknown>;
}

function parseConfig(json: string | undefined): ToolsConfig {
  if (json === undefined) return {};
  const value = parseJson(json, "--config");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError("--config must be a JSON object");
  }
  return value as ToolsConfig;
}

function parseJson(json: string, what: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new UsageError(`${what} are not valid JSON: ${(error as Error).message}`);
  }
}
