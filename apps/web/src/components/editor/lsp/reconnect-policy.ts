import { accessRefusal, LspCloseCode } from "@coder/protocol";

/** Where one language's connection stands, as the editor's status line shows it. */
export type ConnectionState =
  /** Opening the socket and initialising the server. */
  | "connecting"
  | "ready"
  /** The server or the socket went away; trying again after a pause. */
  | "reconnecting"
  /** The server is not installed in the workspace; waits for the person to retry. */
  | "missing"
  /** The service has no server for the language; retrying cannot help. */
  | "unavailable"
  /** Access refused or ended (logged out, not allowed, no such workspace); a new socket would be refused. */
  | "revoked";

export interface AfterClose {
  state: Exclude<ConnectionState, "connecting" | "ready">;
  /** Milliseconds to wait before the next attempt; null: do not retry on its own. */
  retryInMs: number | null;
  /** What to tell the person, when the close reason is not the right words. */
  message?: string;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * What to do after the socket closed with `code` and `reason`, on the `attempt`-th failure in a
 * row (1 for the first). Crashes (1011), dropped connections (1006, a service restart) and
 * protocol errors retry with doubling pauses (so does a workspace that is not running yet); a
 * missing server, an unknown language and a refused or ended access do not.
 */
export function afterClose(code: number, reason: string, attempt: number): AfterClose {
  const refusal = accessRefusal(code);
  if (refusal && !refusal.retry) return { state: "revoked", retryInMs: null, message: refusal.message };
  if (code === LspCloseCode.UnknownLanguage) return { state: "unavailable", retryInMs: null };
  if (code === LspCloseCode.ServerError && /not installed/i.test(reason)) {
    return { state: "missing", retryInMs: null };
  }
  const pause = FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1);
  const retryInMs = Math.min(pause, MAX_RETRY_MS);
  return refusal
    ? { state: "reconnecting", retryInMs, message: refusal.message }
    : { state: "reconnecting", retryInMs };
}
