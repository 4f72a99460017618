import { parseArgs } from "node:util";
import { containerLayout } from "@coder/protocol";
import type { ToolsConfig } from "@coder/tools";

export interface DaemonArgs {
  root: string;
  spillDir: string;
  snapshotDir?: string;
  toolsConfig: ToolsConfig;
}

/** Thrown for a command line the daemon cannot run with; main prints it and exits with 2. */
export class UsageError extends Error {}

export const USAGE = "usage: daemon.mjs [--root DIR] [--spill-dir DIR] [--snapshot-dir DIR] [--config JSON]";

function parseConfig(json: string | undefined): ToolsConfig {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError("--config must be JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError("--config must be a JSON object");
  }
  return value as ToolsConfig;
}

/** Reads the daemon's command line; `cwd` is the default root. */
export function parseDaemonArgs(argv: string[], cwd: string): DaemonArgs {
  let values: { root?: string; "spill-dir"?: string; "snapshot-dir"?: string; config?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        root: { type: "string" },
        "spill-dir": { type: "string" },
        "snapshot-dir": { type: "string" },
        config: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    root: values.root ?? cwd,
    spillDir: values["spill-dir"] ?? containerLayout.spillDir,
    ...(values["snapshot-dir"] ? { snapshotDir: values["snapshot-dir"] } : {}),
    toolsConfig: parseConfig(values.config),
  };
}
