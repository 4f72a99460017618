import { containerLayout } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";

/** Lines of each terminal's history kept across a stop. */
const SAVED_LINES = 1000;
/** A stop does not wait longer than this for the screens to be saved. */
const SAVE_DEADLINE_MS = 3000;

export const PROCESSES_ENDED_NOTICE =
  "[coder] The workspace was stopped, which ended the processes of this terminal; its last screen and folder are back.";

/**
 * Saves the last screen (history included, without trailing blank lines) and the folder of every
 * terminal's tmux session into the state volume, so they outlive the container's processes.
 */
const SAVE_SCRIPT = `
d=${containerLayout.terminalStateDir}
mkdir -p "$d" || exit 0
tmux list-sessions -F '#{session_name}' 2>/dev/null | while IFS= read -r s; do
  case "$s" in ''|*[!A-Za-z0-9_-]*) continue ;; esac
  tmux display-message -p -t "=$s:" '#{pane_current_path}' > "$d/$s.cwd" 2>/dev/null
  tmux capture-pane -p -J -S -${SAVED_LINES} -t "=$s:" 2>/dev/null |
    awk 'NF { last = NR } { line[NR] = $0 } END { for (i = 1; i <= last; i++) print line[i] }' > "$d/$s.screen"
done
`;

/**
 * Attaches to the terminal's tmux session ($1), creating it when missing. A session that a stop
 * ended but whose screen was saved comes back in its folder, showing that screen and saying that
 * its processes ended ($2 is the first command of the new session).
 */
const ATTACH_SCRIPT = `
n=$1; d=${containerLayout.terminalStateDir}
if [ -f "$d/$n.cwd" ] && ! tmux has-session -t "=$n" 2>/dev/null; then
  cwd=$(cat "$d/$n.cwd"); rm -f "$d/$n.cwd"
  [ -d "$cwd" ] || cwd=${containerLayout.workspace}
  mv -f "$d/$n.screen" "$d/$n.shown" 2>/dev/null
  exec tmux new-session -A -s "$n" -c "$cwd" sh -c "$2" sh "$d/$n.shown"
fi
exec tmux new-session -A -s "$n"
`;

const RESTORED_SESSION_START = `
cat "$1" 2>/dev/null; rm -f "$1"
printf '\\n\\033[2m%s\\033[0m\\n' '${PROCESSES_ENDED_NOTICE}'
exec bash -l
`;

/** An editor's command: attach to (or create, or restore) the tmux session `name`. */
export function tmuxAttachCommand(name: string): string[] {
  return ["sh", "-c", ATTACH_SCRIPT, "sh", name, RESTORED_SESSION_START];
}

/**
 * A viewer's command: attach to the open session `name` as a read-only client whose screen never
 * resizes the window everyone else sees (the smallest window of those attached with input:
 * tmux.conf's `window-size smallest`). It never creates a session: a viewer starts no shell.
 */
export function tmuxWatchCommand(name: string): string[] {
  return ["tmux", "attach-session", "-f", "read-only,ignore-size", "-t", `=${name}`];
}

/** Saves every terminal's screen and folder before the workspace stops; never fails the stop. */
export async function saveTerminalScreens(driver: WorkspaceDriver, workspaceId: string): Promise<void> {
  try {
    const proc = await driver.exec(workspaceId, ["sh", "-c", SAVE_SCRIPT]);
    proc.stdin.end();
    proc.stdout.resume();
    proc.stderr.resume();
    const deadline = new Promise((r) => setTimeout(r, SAVE_DEADLINE_MS).unref());
    await Promise.race([proc.exited, deadline]);
    await proc.close();
  } catch {
    // A workspace that is not running has no terminals to save.
  }
}
