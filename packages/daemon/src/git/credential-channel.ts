import type { Duplex } from "node:stream";
import type { DaemonRequestParams, DaemonRequestResult } from "@coder/protocol";
import { type GitPlace, transportRefusal } from "./credential-transport";

/** Asks the service for a login (the daemon→service request `credential.get`). */
export type AskCredential = (
  ask: DaemonRequestParams<"credential.get">,
) => Promise<DaemonRequestResult<"credential.get">>;

/** The login git gets for one call, and whom the daemon asks for it. */
export interface GitCredentialSource {
  /** The service's one-shot id of the call running git; null for git run in a terminal or by the agent. */
  requestId: string | null;
  ask: AskCredential;
}

/** The descriptor of git's process (and so of its helpers) that reaches the daemon. */
export const CREDENTIAL_FD = 3;
/** One request of git's: its attributes are a few short lines. */
const MAX_REQUEST_BYTES = 16 * 1024;
/** git asks once per host it authenticates to; a few more is a process trying its luck. */
const MAX_REQUESTS = 4;

/**
 * Our credential helper, run by git's shell: for `get` it passes git's request (key=value lines
 * ending in a blank one) to descriptor 3, which git inherited from the daemon and passes to its
 * helpers, and gives git the answer; `store` and `erase` do nothing. Nothing secret is in this
 * text: it is on git's command line. The login crosses a socket pair that only git's process
 * tree holds, never a file, an environment variable or an argument.
 */
const CREDENTIAL_HELPER = `!f() { test "$1" = get || exit 0; while IFS= read -r l && test -n "$l"; do printf '%s\\n' "$l"; done >&${CREDENTIAL_FD}; printf '\\n' >&${CREDENTIAL_FD}; while IFS= read -r l <&${CREDENTIAL_FD} && test -n "$l"; do printf '%s\\n' "$l"; done; }; f`;

/**
 * git's `-c` settings for a call that may use a login: our helper (after the guards' reset of
 * every other helper), and no automatic gc, which would detach holding the helper's descriptor.
 */
export const CREDENTIAL_CONFIG: readonly string[] = [
  `credential.helper=${CREDENTIAL_HELPER}`,
  "gc.auto=0",
  "maintenance.auto=false",
].flatMap((setting) => ["-c", setting]);

/** git's attributes of one request; undefined when it is not one git would send. */
function parseRequest(text: string): { protocol: string; host: string } | undefined {
  const fields = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const equals = line.indexOf("=");
    if (equals <= 0) return undefined;
    fields.set(line.slice(0, equals), line.slice(equals + 1));
  }
  const protocol = fields.get("protocol");
  const host = fields.get("host");
  // The path is not passed on: a login is for a host, whatever repository on it.
  return protocol && host ? { protocol, host } : undefined;
}

/** A login git can read back: values on one line each, nothing that would end or add an attribute. */
function answerLines(login: DaemonRequestResult<"credential.get">): string {
  if (!login) return "\n";
  const clean = (value: string) => value !== "" && !/[\r\n\0]/.test(value);
  if (!clean(login.username) || !clean(login.password)) return "\n";
  return `username=${login.username}\npassword=${login.password}\n\n`;
}

/**
 * Serves our helper's requests on the daemon's end of descriptor 3 of one git process: each is
 * passed to the service with the call's id, and the service's answer goes back unless the
 * repository's configuration would send it somewhere unverified (credential-transport.ts). Ends with git
 * (the caller destroys the socket when git exits); a request too large, malformed or one too many
 * ends it early.
 */
export function serveCredentials(
  socket: Duplex,
  source: GitCredentialSource,
  place: GitPlace,
  log: (message: string) => void,
): void {
  let pending = "";
  let served = 0;
  let busy = false;
  // The first host asked for is the remote's: a program started inside git's process tree later
  // (a merge's gpg, say) that holds descriptor 3 too gets nothing for any other host.
  let lockedTo: string | undefined;
  socket.setEncoding("utf8");
  socket.on("error", () => undefined);
  const next = async () => {
    const end = pending.indexOf("\n\n");
    if (busy || end < 0) return;
    const text = pending.slice(0, end + 1);
    pending = pending.slice(end + 2);
    const request = parseRequest(text);
    served += 1;
    if (!request || served > MAX_REQUESTS) {
      log("git's credential helper sent a malformed request or too many; no login given");
      socket.destroy();
      return;
    }
    const target = `${request.protocol}://${request.host}`;
    lockedTo ??= target;
    if (target !== lockedTo) {
      log(`git of one call asked for a second host (${request.host.slice(0, 200)}); no login given`);
      socket.write("\n");
      void next();
      return;
    }
    busy = true;
    let login: DaemonRequestResult<"credential.get"> = null;
    try {
      login = await source.ask({ requestId: source.requestId, ...request });
      // Asked after the service, so the log says why a login it gave was kept back.
      const refusal = login ? await transportRefusal(place, request) : undefined;
      if (refusal) {
        log(`kept the login for ${request.host.slice(0, 200)} from git: ${refusal}`);
        login = null;
      }
    } catch (error) {
      log(`the service gave no login: ${(error as Error).message}`);
    }
    busy = false;
    if (!socket.destroyed) socket.write(answerLines(login));
    void next();
  };
  socket.on("data", (chunk: string) => {
    pending += chunk;
    if (pending.length > MAX_REQUEST_BYTES) {
      log("git's credential helper sent more than a request; no login given");
      socket.destroy();
      return;
    }
    void next();
  });
}
