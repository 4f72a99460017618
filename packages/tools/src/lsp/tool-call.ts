import { readFile } from "node:fs/promises";
import { type LspServerConfig, lspServerForPath } from "@coder/protocol";
import { statExisting } from "../files/not-found";
import { type ToolContext, ToolError } from "../framework/types";
import { resolveForReading, shownPath } from "../paths/tool-paths";
import type { LspClient } from "./client";
import { LspNotInstalledError, LspServerError, LspTimeoutError } from "./errors";
import type { ServerStatus } from "./manager";
import { describeServers, type LspSettings, lspSettings } from "./settings";
import { sharedLspManager } from "./shared";

/** Larger files are not sent to a language server. */
export const MAX_LSP_FILE_BYTES = 4 * 1024 * 1024;

/** The file an `lsp_*` call is about, read now so the server sees exactly what is on disk. */
export interface LspTarget {
  file: string;
  shown: string;
  text: string;
  server: LspServerConfig;
  settings: LspSettings;
}

/**
 * Resolves and reads the file of an `lsp_*` call and picks its server by extension. `fallback`
 * says what to do instead when no server can answer (grep, read).
 */
export async function lspTarget(ctx: ToolContext, input: string, fallback: string): Promise<LspTarget> {
  const settings = lspSettings(ctx.config);
  const file = await resolveForReading(ctx, input);
  const st = await statExisting(ctx, file, input);
  if (st.isDirectory())
    throw new ToolError("is_directory", `${input} is a folder`, "name a source file in it");
  const server = lspServerForPath(settings.servers, file);
  if (!server) {
    throw new ToolError(
      "unavailable",
      `no language server is configured for ${input}`,
      `servers exist for ${describeServers(settings.servers)}; ${fallback}`,
      { server_status: "unsupported" },
    );
  }
  if (st.size > MAX_LSP_FILE_BYTES) {
    throw new ToolError("unavailable", `${input} is too large for the language server`, fallback);
  }
  return { file, shown: shownPath(ctx, file), text: await readFile(file, "utf8"), server, settings };
}

/**
 * Runs `work` on the target's server (started on demand) after syncing the file's text to it.
 * Server trouble becomes a typed tool error carrying `server_status` and the fallback.
 */
export async function withLanguageServer<T>(
  ctx: ToolContext,
  target: LspTarget,
  fallback: string,
  work: (client: LspClient, uri: string) => Promise<T>,
): Promise<{ value: T; status: ServerStatus }> {
  const { server } = target;
  try {
    return await sharedLspManager(target.settings).use(server, ctx.workspaceRoot, async (client) =>
      work(client, await client.sync(target.file, target.text)),
    );
  } catch (error) {
    if (error instanceof LspNotInstalledError) {
      throw new ToolError(
        "unavailable",
        `${error.program}, the ${server.language} language server, is not installed`,
        `install it with \`${server.install}\`; until then, ${fallback}`,
        { server_status: "not_installed", install_hint: server.install, suggestion: fallback },
      );
    }
    if (error instanceof LspServerError) {
      throw new ToolError("unavailable", error.message, fallback, { server_status: "crashed" });
    }
    if (error instanceof LspTimeoutError) {
      throw new ToolError("timeout", error.message, fallback, { server_status: "running" });
    }
    throw error;
  }
}

/** Refuses a 0-based position outside the file's text, saying what the valid range is. */
export function checkPosition(target: LspTarget, line: number, character: number): void {
  const lines = target.text.split(/\r\n|\r|\n/);
  const text = lines[line];
  if (text === undefined) {
    throw new ToolError(
      "invalid_args",
      `line ${line} is past the end of ${target.shown}, which has ${lines.length} lines (0-based: 0 to ${lines.length - 1})`,
      "lines and characters are 0-based: the first line of the file is line 0",
    );
  }
  if (character > text.length) {
    throw new ToolError(
      "invalid_args",
      `character ${character} is past the end of line ${line} of ${target.shown}, which has ${text.length} characters`,
      "characters are 0-based: the first character of a line is 0",
    );
  }
}
