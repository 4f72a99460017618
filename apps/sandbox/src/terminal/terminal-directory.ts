import { containerLayout, terminalName } from "@coder/protocol";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { ServiceError } from "../errors/service-error";

/** At most this many terminals are listed: a process in the workspace can make thousands. */
export const MAX_LISTED_TERMINALS = 50;
/** What the listing may print before the rest is ignored (50 names need about 2 KiB). */
const MAX_LIST_BYTES = 64 * 1024;
/** Lists asked for within this long of the last one share its answer: many watchers, one exec. */
const FRESH_MS = 1500;

/**
 * Lists "#{session_created} #{session_name}" per tmux session; nothing (and success) when no tmux
 * server runs yet.
 */
const LIST_SCRIPT = `tmux list-sessions -F '#{session_created} #{session_name}' 2>/dev/null; exit 0`;

/** Names tried after the first free-looking one before a new terminal is given up on. */
const NAME_ATTEMPTS = 200;

/**
 * Makes the first terminal t<N> from N=$1 on that is neither open nor saved by a stop (attaching
 * to a saved name would restore someone's screen), as a detached tmux session, and prints its
 * name. tmux refuses a duplicate name, so two callers at once (on any instance) never get the same
 * one. Exits 2 when tmux fails for another reason, 1 when every name tried was taken.
 */
const CREATE_SCRIPT = `
d=${containerLayout.terminalStateDir}; n=$1; last=$(($1 + ${NAME_ATTEMPTS}))
while [ "$n" -le "$last" ]; do
  s=t$n
  if [ ! -e "$d/$s.cwd" ]; then
    if tmux new-session -d -s "$s" -c ${containerLayout.workspace} 2>/dev/null; then echo "$s"; exit 0; fi
    tmux has-session -t "=$s" 2>/dev/null || exit 2
  fi
  n=$((n + 1))
done
exit 1
`;

/** What a terminal's shell gets, as the terminal socket's exec gives it. */
const TERMINAL_ENV = ["TERM=xterm-256color", "LANG=C.UTF-8", "COLORTERM=truecolor"];

/** A new terminal could not be made; the message is for people. */
export class TerminalCreateError extends ServiceError {
  constructor(message: string) {
    super("precondition", message);
  }
}

/**
 * The terminals open in a workspace: its tmux sessions, which are the truth (a shell can end one,
 * or make one with `tmux new -s`). What tmux prints comes from the workspace, so it is read up to
 * a bound and only names a terminal could have are kept.
 */
export class TerminalDirectory {
  private readonly recent = new Map<string, { at: number; names: Promise<string[]> }>();
  /** The highest N of the t<N> handed out per workspace: a closed terminal's name is not handed out again soon. */
  private readonly handedOut = new Map<string, number>();

  constructor(private readonly driver: WorkspaceDriver) {}

  /** The workspace's terminal names, oldest first; shared with callers of the last moments. */
  list(workspaceId: string): Promise<string[]> {
    const cached = this.recent.get(workspaceId);
    if (cached && Date.now() - cached.at < FRESH_MS) return cached.names;
    const names = this.read(workspaceId);
    this.recent.set(workspaceId, { at: Date.now(), names });
    // A failed read is not kept: the next caller asks again.
    names.catch(() => this.recent.delete(workspaceId));
    return names;
  }

  /** Whether the terminal `name` is open now (asked afresh, not from the shared answer). */
  async isOpen(workspaceId: string, name: string): Promise<boolean> {
    const proc = await this.driver.exec(workspaceId, ["tmux", "has-session", "-t", `=${name}`]);
    proc.stdin.end();
    proc.stdout.resume();
    proc.stderr.resume();
    return (await proc.exited) === 0;
  }

  /**
   * Opens a new terminal under a name nobody uses (not open, not saved, not handed out by this
   * service since it started) and returns the name; attaching to it then finds it open.
   */
  async create(workspaceId: string): Promise<string> {
    const from = (this.handedOut.get(workspaceId) ?? 0) + 1;
    const proc = await this.driver.exec(workspaceId, ["sh", "-c", CREATE_SCRIPT, "sh", String(from)], {
      env: TERMINAL_ENV,
    });
    proc.stdin.end();
    proc.stderr.resume();
    let text = "";
    for await (const chunk of proc.stdout) {
      text += (chunk as Buffer).toString("latin1");
      if (text.length > 64) break;
    }
    const code = await proc.exited;
    await proc.close();
    const name = terminalName.safeParse(text.trim());
    const n = Number(/^t(\d+)$/.exec(text.trim())?.[1]);
    if (code !== 0 || !name.success || !Number.isSafeInteger(n)) {
      throw new TerminalCreateError(
        code === 1
          ? "too many terminals are open in this workspace"
          : "the workspace could not start a terminal",
      );
    }
    this.handedOut.set(workspaceId, Math.max(n, this.handedOut.get(workspaceId) ?? 0));
    // The next listing shows it.
    this.recent.delete(workspaceId);
    return name.data;
  }

  private async read(workspaceId: string): Promise<string[]> {
    const proc = await this.driver.exec(workspaceId, ["sh", "-c", LIST_SCRIPT]);
    proc.stdin.end();
    proc.stderr.resume();
    let text = "";
    for await (const chunk of proc.stdout) {
      text += (chunk as Buffer).toString("latin1");
      if (text.length >= MAX_LIST_BYTES) {
        text = text.slice(0, MAX_LIST_BYTES);
        break;
      }
    }
    await proc.close();
    return parseSessions(text);
  }
}

/** Terminal names from the listing, oldest first: lines that are not "<seconds> <name>" are skipped. */
export function parseSessions(text: string): string[] {
  const sessions: { created: number; name: string }[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\d{1,12}) (\S+)$/.exec(line);
    if (!match?.[1] || !match[2] || !terminalName.safeParse(match[2]).success) continue;
    sessions.push({ created: Number(match[1]), name: match[2] });
  }
  sessions.sort((a, b) => a.created - b.created || a.name.localeCompare(b.name));
  return [...new Set(sessions.map((s) => s.name))].slice(0, MAX_LISTED_TERMINALS);
}
