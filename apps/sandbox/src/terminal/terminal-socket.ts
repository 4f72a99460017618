import {
  TERMINAL_HIGH_WATER_BYTES,
  type TerminalServerMessage,
  terminalClientMessage,
  terminalName,
} from "@coder/protocol";
import type { WebSocket } from "ws";
import { actorOf, type RecordAudit } from "../audit/audit-entry";
import { displayName } from "../auth/principal";
import { SocketBridge } from "../container-streams/socket-bridge";
import type { TtyProcess, WorkspaceDriver } from "../driver/workspace-driver";
import type { SocketAccess, SocketRoute } from "../sockets/socket-route";
import { type AttachmentHandle, TerminalAttachments } from "./terminal-attachments";
import type { TerminalDirectory } from "./terminal-directory";
import { tmuxAttachCommand, tmuxWatchCommand } from "./tmux-session";

/** Resume reading from the container once the browser has caught up to this. */
const LOW_WATER_BYTES = TERMINAL_HIGH_WATER_BYTES / 4;
/** Messages larger than this from the browser are refused (a paste is far smaller). */
export const MAX_TERMINAL_INPUT_BYTES = 1024 * 1024;

function send(ws: WebSocket, message: TerminalServerMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

/**
 * Bridges one browser WebSocket to a tmux client inside the workspace. Each socket gets its own
 * `docker exec` running `tmux new -A` (tmux-session.ts): the tmux session is shared by every viewer
 * and outlives the socket, so a reload or a second tab sees the same screen; after a stop it comes
 * back with its last screen and folder. Output is flow-controlled by acks from
 * the browser: past the high-water mark the exec stream is paused, tmux stops drawing for this
 * client, and neither the service's memory nor the page can be flooded. A read-only socket (a
 * viewer) attaches only to a session that is open, as a read-only tmux client, and its keystrokes
 * are dropped here too. Everyone attached hears who is (`attachments`).
 */
export async function serveTerminal(
  ws: WebSocket,
  deps: TerminalDeps,
  workspaceId: string,
  terminal: string,
  { principal, readOnly, client }: Pick<SocketAccess, "principal" | "readOnly" | "client">,
): Promise<void> {
  const { driver, terminals, attachments, log, record } = deps;
  let proc: TtyProcess | undefined;
  let attachment: AttachmentHandle | undefined;
  let size = { cols: 80, rows: 24 };
  let unacked = 0;
  let toldReadOnly = false;
  const bridge = new SocketBridge<TtyProcess, Buffer>(ws, {
    // Keystrokes typed while the exec starts: a paste at most.
    maxEarlyBytes: MAX_TERMINAL_INPUT_BYTES,
    deliver: (p, chunk) => p.stream.write(chunk),
    end: (p) => void p.close(),
    onOverflow: () => bridge.close(1009, "too much input before the terminal started"),
  });

  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (isBinary) {
      // A viewer watches: keystrokes never reach the container (said once, not per key).
      if (readOnly) {
        if (!toldReadOnly) send(ws, { type: "error", message: "this terminal is read-only for you" });
        toldReadOnly = true;
        return;
      }
      return bridge.fromBrowser(data, data.length);
    }
    let parsed: ReturnType<typeof terminalClientMessage.safeParse>;
    try {
      parsed = terminalClientMessage.safeParse(JSON.parse(data.toString()));
    } catch {
      send(ws, { type: "error", message: "control messages must be JSON" });
      return;
    }
    if (!parsed.success) {
      send(ws, {
        type: "error",
        message: `bad control message: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      });
      return;
    }
    const msg = parsed.data;
    if (msg.type === "resize") {
      size = { cols: msg.cols, rows: msg.rows };
      void proc?.resize(msg.cols, msg.rows);
      attachment?.resized(msg.cols, msg.rows);
    } else {
      unacked = Math.max(0, unacked - msg.bytes);
      if (unacked <= LOW_WATER_BYTES) bridge.release("acks");
    }
  });
  // An oversized or malformed frame is an error on this socket only; ws closes it with a code.
  ws.on("error", (err) => log(`terminal ${workspaceId}/${terminal}: ${err.message}`));

  let started: TtyProcess;
  try {
    if (readOnly && !(await terminals.isOpen(workspaceId, terminal))) {
      send(ws, {
        type: "error",
        message: `no terminal "${terminal}" is open; it shows once an editor opens it`,
      });
      bridge.close(1000, "no such terminal");
      return;
    }
    const command = readOnly ? tmuxWatchCommand(terminal) : tmuxAttachCommand(terminal);
    started = await driver.execTty(workspaceId, command, size);
  } catch (err) {
    log(`terminal ${workspaceId}/${terminal}: ${(err as Error).message}`);
    send(ws, { type: "error", message: `cannot open the terminal: ${(err as Error).message}` });
    bridge.close(1011, "terminal unavailable");
    return;
  }
  // A resize that arrived while the exec was being created applies before the early keystrokes.
  void started.resize(size.cols, size.rows);
  if (!bridge.started(started, started.stream)) return;
  proc = started;
  send(ws, { type: "ready" });
  // Listed once its tmux client is attached, which is when tmux counts its window.
  attachment = attachments.attach(workspaceId, terminal, {
    name: displayName(principal),
    input: !readOnly,
    ...size,
    tell: (message) => send(ws, message),
  });
  const act = { actor: actorOf(principal), workspaceId, target: terminal, client, detail: { readOnly } };
  record({ ...act, action: "terminal.opened" });
  ws.once("close", () => {
    attachment?.detach();
    record({ ...act, action: "terminal.closed" });
  });
  started.stream.on("data", (chunk: Buffer) => {
    bridge.toBrowser(chunk);
    unacked += chunk.length;
    if (unacked > TERMINAL_HIGH_WATER_BYTES) bridge.hold("acks");
  });
  const ended = () => {
    send(ws, { type: "exit", code: null });
    bridge.close(1000, "terminal ended");
  };
  started.stream.once("end", ended);
  started.stream.once("error", ended);
}

interface TerminalDeps {
  driver: WorkspaceDriver;
  terminals: TerminalDirectory;
  attachments: TerminalAttachments;
  log: (line: string) => void;
  /** The audit trail: who opened and closed which terminal. */
  record: RecordAudit;
}

/** `/terminal/<workspace>/<name>`: a viewer sees the screen; typing needs an editor. */
export function terminalRoute(
  driver: WorkspaceDriver,
  terminals: TerminalDirectory,
  log: (line: string) => void,
  record: RecordAudit,
): SocketRoute {
  const deps = { driver, terminals, attachments: new TerminalAttachments(), log, record };
  return {
    prefix: "terminal",
    name: terminalName,
    minimumRole: "viewer",
    maxPayload: MAX_TERMINAL_INPUT_BYTES,
    serve: (ws, { workspaceId, name }, access) => void serveTerminal(ws, deps, workspaceId, name, access),
  };
}
