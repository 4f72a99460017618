import { containerLayout, type GitSource, type ImportProgress } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import type { EgressAllowEntry } from "../net/egress-allow-list";
import { GitProgress } from "./git-progress";
import { checkGitUrl } from "./git-url";
import { ImportError } from "./import-error";
import { runJob } from "./run-job";

/** The clone job's exit code when what it fetched outgrew the limit. */
const TOO_BIG = 90;
/** The user name sent with a token; git servers take the token as the password. */
const TOKEN_USER = "x-access-token";

/**
 * The clone job (bash, as the workspace user, on the egress network). The first line of stdin is
 * the token (empty for none): it lives in this job's environment only, never on a command line or
 * in the container's configuration, and the credential helper (CREDENTIAL_HELPER) hands it out
 * only for the repository's own host, so a submodule elsewhere cannot collect it. The rest of
 * stdin stays open while the service waits; its end stops the clone. A watchdog measures the
 * workspace every second (du costs little at that pace) and stops a repository past the limit with
 * exit code 90; the workspace's disk quota is the hard bound meanwhile.
 */
const CLONE_JOB = `set -u
limit_kb=$1; host=$2; clean=$3; shift 3
IFS= read -r CODER_GIT_TOKEN || true
exec 3<&0
export CODER_GIT_TOKEN CODER_GIT_HOST="$host"
if [ "$clean" = clean ]; then find ${containerLayout.workspace} -mindepth 1 -delete; fi
git "$@" &
pid=$!
# The service holds stdin open while it waits: its end (the service went away) ends the clone.
# (fd 3: a background job's own stdin would be /dev/null.)
( cat <&3 >/dev/null; kill -TERM "$pid" 2>/dev/null ) &
over=0
while kill -0 "$pid" 2>/dev/null; do
  used=$(du -sk ${containerLayout.workspace} 2>/dev/null | cut -f1)
  if [ "\${used:-0}" -gt "$limit_kb" ]; then over=1; kill -TERM "$pid"; break; fi
  sleep 1
done
wait "$pid"; code=$?
used=$(du -sk ${containerLayout.workspace} 2>/dev/null | cut -f1)
if [ "$over" = 1 ] || [ "\${used:-0}" -gt "$limit_kb" ]; then exit ${TOO_BIG}; fi
exit "$code"
`;

/**
 * git's credential helper when a token was given (run by git's shell; the token comes from the
 * job's environment): answers `get` for the repository's host (with its port) and nothing else.
 */
const CREDENTIAL_HELPER = `!f() {
  test "$1" = get || return 0
  host=
  while IFS= read -r line && [ -n "$line" ]; do
    case "$line" in host=*) host=\${line#host=} ;; esac
  done
  if [ -n "$CODER_GIT_TOKEN" ] && [ "$host" = "$CODER_GIT_HOST" ]; then
    printf 'username=${TOKEN_USER}\\npassword=%s\\n' "$CODER_GIT_TOKEN"
  fi
}; f`;

/**
 * git configured against the repository it fetches: https only (http only to an address the
 * operator opened), no redirects, no hooks, no fsmonitor, no credential helpers, objects checked
 * on arrival, no submodules unless asked (and then under the same protocol rules, so never a
 * local path), and none of the machine's or user's git configuration.
 */
export function gitCloneArgs(source: GitSource, plainHttp: boolean): string[] {
  const token = source.token !== undefined;
  const config = [
    "protocol.allow=never",
    "protocol.https.allow=always",
    ...(plainHttp ? ["protocol.http.allow=always"] : []),
    "http.followRedirects=false",
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.protectNTFS=true",
    "core.protectHFS=true",
    "credential.helper=",
    ...(token ? [`credential.helper=${CREDENTIAL_HELPER}`] : []),
    "transfer.fsckObjects=true",
    `submodule.recurse=${source.submodules}`,
    "http.lowSpeedLimit=1",
    "http.lowSpeedTime=120",
  ];
  return [
    ...config.flatMap((c) => ["-c", c]),
    "clone",
    "--progress",
    "--template=",
    ...(source.ref ? ["--branch", source.ref] : []),
    ...(source.depth ? ["--depth", String(source.depth)] : []),
    ...(source.submodules ? ["--recurse-submodules"] : []),
    "--",
    source.url,
    containerLayout.workspace,
  ];
}

export interface CloneSettings {
  maxBytes: number;
  timeoutMs: number;
  allow: readonly EgressAllowEntry[];
}

/**
 * Clones `source` into the workspace's volume in a job on the egress network. Rejects with an
 * ImportError in git's words (bounded), or saying which limit was reached.
 */
export async function cloneInto(
  driver: WorkspaceDriver,
  workspaceId: string,
  image: string,
  source: GitSource,
  options: {
    settings: CloneSettings;
    clean: boolean;
    onProgress(p: ImportProgress): void;
    signal: AbortSignal;
  },
): Promise<void> {
  const { settings } = options;
  const checked = checkGitUrl(source.url, settings.allow);
  const progress = new GitProgress(options.onProgress);
  const limitKb = Math.ceil(settings.maxBytes / 1024);
  const { code } = await runJob(
    driver,
    workspaceId,
    {
      image,
      network: "egress",
      cmd: [
        "bash",
        "-c",
        CLONE_JOB,
        "coder-clone",
        String(limitKb),
        checked.host,
        options.clean ? "clean" : "keep",
        ...gitCloneArgs({ ...source, url: checked.url }, checked.plainHttp),
      ],
      env: [
        "GIT_TERMINAL_PROMPT=0",
        "GIT_CONFIG_NOSYSTEM=1",
        "GIT_CONFIG_GLOBAL=/dev/null",
        "GIT_PROTOCOL_FROM_USER=0",
        `GIT_ALLOW_PROTOCOL=${checked.plainHttp ? "https:http" : "https"}`,
        "LC_ALL=C",
      ],
    },
    {
      stdin: `${source.token ?? ""}\n`,
      holdStdin: true,
      onStderr: (chunk) => progress.write(chunk),
      timeoutMs: settings.timeoutMs,
      signal: options.signal,
    },
  );
  if (code === 0) return;
  if (code === TOO_BIG)
    throw new ImportError(
      `the repository is larger than the import limit of ${Math.round(settings.maxBytes / 2 ** 20)} MB (CODER_IMPORT_MAX_MB)`,
      "too_large",
    );
  const said = progress.failureMessage();
  const login = /could not read Username|terminal prompts disabled/.test(said)
    ? "the repository asks for a login: give a token with read access. "
    : "";
  throw new ImportError(`git clone failed: ${login}${said || `exit code ${code}`}`);
}
