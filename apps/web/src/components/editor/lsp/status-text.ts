import type { ConnectionStatus } from "./language-connection";
import { languageLabel } from "./server-for-file";

/** The editor's one-line account of a language server, e.g. "Python: language server ready". */
export function statusText({ language, state, detail }: ConnectionStatus): string {
  const label = languageLabel(language);
  switch (state) {
    case "connecting":
      return `${label}: starting language server…`;
    case "ready":
      return `${label}: language server ready`;
    case "reconnecting":
      return `${label}: language server stopped${detail ? ` (${detail})` : ""} — reconnecting…`;
    case "missing":
      return `${label}: language server not installed — run: ${detail}`;
    case "unavailable":
      return `${label}: no language server is configured`;
    case "revoked":
      return `${label}: language server closed — ${detail}`;
  }
}
