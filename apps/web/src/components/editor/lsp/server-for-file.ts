import {
  DEFAULT_LSP_SERVERS,
  type LspServerConfig,
  lspLanguageIdForPath,
  lspServerForPath,
} from "@coder/protocol";

/** What the editor needs to know about the language server of a file. */
export interface FileServer {
  /** The name in the proxy's URL, e.g. `python`. */
  language: string;
  /** The LSP `languageId` of the file's document. */
  languageId: string;
  /** How to install the server, shown when it is missing. */
  install: string;
}

/** The language server for a file, by its extension; null when no server serves it. */
export function serverForFile(
  path: string,
  servers: readonly LspServerConfig[] = DEFAULT_LSP_SERVERS,
): FileServer | null {
  const server = lspServerForPath(servers, path);
  if (!server) return null;
  return {
    language: server.language,
    languageId: lspLanguageIdForPath(server, path),
    install: server.install,
  };
}

/** Languages whose names are not just capitalised. */
const LABELS: Readonly<Record<string, string>> = { typescript: "TypeScript" };

/** "python" → "Python", "typescript" → "TypeScript", for messages. */
export function languageLabel(language: string): string {
  return LABELS[language] ?? language.charAt(0).toUpperCase() + language.slice(1);
}
