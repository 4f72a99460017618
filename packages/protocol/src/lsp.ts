import { z } from "zod";
import { containerLayout } from "./container-layout";

/**
 * Language servers: one table shared by the service's WebSocket proxy (`/lsp/:workspace/:language`,
 * one JSON-RPC message per text frame) and the `lsp_*` tools. Both run the servers inside the
 * workspace container, where the workspace is `/workspace`.
 */

export const lspLanguage = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{0,31}$/,
    "a language is 1–32 lowercase letters, digits, _ or -, starting with a letter",
  );

export const lspServerConfig = z.object({
  /** The name in the proxy's URL and in messages, e.g. `python`. */
  language: lspLanguage,
  /** The server's argv, started with the workspace as working folder and speaking LSP on stdio. */
  command: z.array(z.string().min(1)).min(1, "command needs at least the program"),
  /** File extensions it serves, without the dot (`py`); matched case-insensitively. */
  extensions: z
    .array(
      z
        .string()
        .regex(/^\.?[A-Za-z0-9_+-]+$/, "an extension is letters, digits, _, + or -")
        .transform((e) => e.replace(/^\./, "").toLowerCase()),
    )
    .min(1, "name at least one file extension"),
  /** The LSP `languageId` of its documents (default: `language`). */
  languageId: z.string().min(1).optional(),
  /**
   * A `languageId` per extension where it differs from `languageId`: one server may read several
   * dialects (`tsx` → `typescriptreact`) and must be told which one a document is.
   */
  languageIds: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9_+-]+$/, "an extension is letters, digits, _, + or -")
        .transform((e) => e.toLowerCase()),
      z.string().min(1),
    )
    .optional(),
  /**
   * What the service (never a browser) tells the server at `initialize`: the operator's settings,
   * sent alike by the editor's socket and the agent's tools. A browser's own are dropped.
   */
  initializationOptions: z
    .record(z.string(), z.unknown())
    .refine((o) => JSON.stringify(o).length <= 16_384, "initializationOptions are at most 16 KB of JSON")
    .optional(),
  /** The command that installs it, shown when it is missing. */
  install: z.string().min(1),
});
export type LspServerConfig = z.infer<typeof lspServerConfig>;

export const DEFAULT_LSP_SERVERS: readonly LspServerConfig[] = [
  {
    language: "bash",
    command: ["bash-language-server", "start"],
    extensions: ["sh", "bash"],
    languageId: "shellscript",
    install: "npm install -g bash-language-server",
  },
  {
    language: "python",
    command: ["pylsp"],
    extensions: ["py"],
    languageId: "python",
    install: "pip install python-lsp-server",
  },
  {
    language: "typescript",
    command: ["typescript-language-server", "--stdio"],
    extensions: ["ts", "mts", "cts", "tsx", "js", "mjs", "cjs", "jsx"],
    languageId: "typescript",
    languageIds: {
      tsx: "typescriptreact",
      js: "javascript",
      mjs: "javascript",
      cjs: "javascript",
      jsx: "javascriptreact",
    },
    // One tsserver, not a second syntax-only one that answers with half the project while the
    // first loads (≈ 160 MB each), and no automatic download of type packages: a workspace may
    // have no network, and what it installs is its own choice.
    initializationOptions: {
      tsserver: { useSyntaxServer: "never" },
      disableAutomaticTypingAcquisition: true,
    },
    install: "npm install -g typescript-language-server typescript",
  },
];

export const lspServerList = z.array(lspServerConfig).superRefine((list, ctx) => {
  const seen = new Set<string>();
  for (const [i, server] of list.entries()) {
    if (seen.has(server.language)) {
      ctx.addIssue({ code: "custom", path: [i, "language"], message: `${server.language} is listed twice` });
    }
    seen.add(server.language);
  }
});

/**
 * The server table in use: the defaults, with each configured entry replacing the default of its
 * language or adding a new one. So configuring TypeScript keeps bash and Python.
 */
export function resolveLspServers(configured: readonly LspServerConfig[] = []): LspServerConfig[] {
  const byLanguage = new Map(DEFAULT_LSP_SERVERS.map((s) => [s.language, s]));
  for (const server of configured) byLanguage.set(server.language, server);
  return [...byLanguage.values()];
}

/** Reads a JSON list of servers (the service's `CODER_LSP_SERVERS`); throws a readable error. */
export function parseLspServers(json: string | undefined): LspServerConfig[] {
  if (json === undefined || json.trim() === "") return resolveLspServers();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(
      "the language server list must be JSON: a list of {language, command, extensions, install}",
    );
  }
  const parsed = lspServerList.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `language server list: ${issue?.path.join(".") || "(list)"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return resolveLspServers(parsed.data);
}

export function lspServerFor(
  servers: readonly LspServerConfig[],
  language: string,
): LspServerConfig | undefined {
  return servers.find((s) => s.language === language);
}

/** A file's extension, lowercase and without the dot; none for `README` or `.bashrc`. */
function extensionOf(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? undefined : name.slice(dot + 1).toLowerCase();
}

/** The server for a file, by its extension (`a/b.PY` → python). */
export function lspServerForPath(
  servers: readonly LspServerConfig[],
  path: string,
): LspServerConfig | undefined {
  const extension = extensionOf(path);
  return extension === undefined ? undefined : servers.find((s) => s.extensions.includes(extension));
}

/** The `languageId` the server is told for a file (`App.tsx` → `typescriptreact`). */
export function lspLanguageIdForPath(server: LspServerConfig, path: string): string {
  const extension = extensionOf(path);
  return (extension && server.languageIds?.[extension]) || server.languageId || server.language;
}

/** The root every server sees: URIs in LSP messages are container paths under it. */
export const LSP_WORKSPACE_PATH = containerLayout.workspace;
export const LSP_WORKSPACE_URI = `file://${containerLayout.workspace}`;

/** The proxy refuses larger messages in either direction (close code 1009). */
export const MAX_LSP_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Close codes of the LSP socket; the editor reconnects after `ServerError`. */
export const LspCloseCode = {
  /** The client asked the server to exit. */
  Normal: 1000,
  /** A binary frame: LSP messages are text. */
  UnsupportedData: 1003,
  /** A frame that is not one JSON-RPC message. */
  InvalidMessage: 1007,
  /** No server is configured for the language in the URL. */
  UnknownLanguage: 1008,
  TooBig: 1009,
  /** The server could not start, is not installed, or exited. */
  ServerError: 1011,
} as const;
