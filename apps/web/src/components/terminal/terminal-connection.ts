import {
  accessRefusal,
  type TerminalClientMessage,
  type TerminalServerMessage,
  terminalServerMessage,
} from "@coder/protocol";
import { reportAccessEnded } from "../../lib/auth/access-ended";
import { AckCounter } from "./ack-counter";
import { reconnectDelay } from "./reconnect-delay";
import { type OpenSocket, openBrowserSocket, type SocketLink } from "./terminal-socket";

/** `closed`: the shell ended (a key starts a new one); `revoked`: access refused or ended (no reconnect). */
export type TerminalState = "connecting" | "open" | "reconnecting" | "closed" | "revoked";

export interface TerminalStatus {
  state: TerminalState;
  /** Why the last attempt failed, as the service put it. */
  problem?: string;
  /** With `revoked`: the close code (`AccessCloseCode`), so the page knows whether logging in helps. */
  code?: number;
}

/** Who is attached to the terminal and the size of its shared window, as the service says. */
export type TerminalAttached = Extract<TerminalServerMessage, { type: "attached" }>;

/** Where output goes: xterm in the page, a recorder in tests. */
export interface TerminalSink {
  /** Shows terminal output; calls `done` once it has been processed (drives flow control). */
  write(data: Uint8Array | string, done?: () => void): void;
  size(): { cols: number; rows: number };
}

export interface TerminalConnectionOptions {
  url: string;
  sink: TerminalSink;
  onStatus: (status: TerminalStatus) => void;
  /** Hears who is attached whenever that changes (and null once the socket is gone). */
  onAttached?: (attached: TerminalAttached | null) => void;
  openSocket?: OpenSocket;
  /** Runs `task` after `ms`; returns a cancel function. */
  schedule?: (task: () => void, ms: number) => () => void;
}

const SESSION_ENDED = "\r\n\x1b[2m[session ended: press any key to start a new one]\x1b[0m\r\n";

const defaultSchedule = (task: () => void, ms: number) => {
  const timer = setTimeout(task, ms);
  return () => clearTimeout(timer);
};

/**
 * One terminal tab's link to its tmux session. Binary frames carry bytes both ways; JSON text
 * frames carry control. An unexpected close reconnects with backoff: tmux keeps the session, so
 * reattaching redraws the screen. When the shell itself ends, the next key starts a new session.
 * When the login ends (the service closes with an access code), it stays closed and says why.
 */
export class TerminalConnection {
  private readonly encoder = new TextEncoder();
  private readonly openSocket: OpenSocket;
  private readonly schedule: (task: () => void, ms: number) => () => void;
  private link: SocketLink | null = null;
  /** Bumped per socket, so late callbacks of an old socket (acks, closes) are ignored. */
  private generation = 0;
  private attempt = 0;
  private status: TerminalStatus = { state: "connecting" };
  private cancelRetry: (() => void) | null = null;
  private disposed = false;

  constructor(private readonly options: TerminalConnectionOptions) {
    this.openSocket = options.openSocket ?? openBrowserSocket;
    this.schedule = options.schedule ?? defaultSchedule;
  }

  connect(): void {
    if (this.disposed) return;
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.disposed;
    const counter = new AckCounter();
    this.link = this.openSocket(this.options.url, {
      open: () => {
        if (current()) this.control({ type: "resize", ...this.options.sink.size() });
      },
      message: (data) => {
        if (!current()) return;
        if (typeof data === "string") this.onControl(data);
        else this.onOutput(new Uint8Array(data), counter, current);
      },
      close: (code) => {
        if (current()) this.onClose(code);
      },
    });
  }

  /** Keystrokes and pastes from xterm's `onData`. */
  sendInput(data: string): void {
    if (this.status.state === "closed") {
      this.restart();
      return;
    }
    this.link?.send(this.encoder.encode(data));
  }

  /** xterm's `onBinary`: a string whose char codes are raw bytes (some mouse reports). */
  sendBinary(data: string): void {
    this.link?.send(Uint8Array.from(data, (char) => char.charCodeAt(0) & 0xff));
  }

  resize(cols: number, rows: number): void {
    this.control({ type: "resize", cols, rows });
  }

  dispose(): void {
    this.disposed = true;
    this.cancelRetry?.();
    this.link?.close();
    this.link = null;
  }

  private restart(): void {
    this.attempt = 0;
    this.setStatus({ state: "connecting" });
    this.connect();
  }

  private onOutput(bytes: Uint8Array, counter: AckCounter, current: () => boolean): void {
    this.options.sink.write(bytes, () => {
      if (!current()) return;
      const ack = counter.processed(bytes.length);
      if (ack !== null) this.control({ type: "ack", bytes: ack });
    });
  }

  private onControl(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = terminalServerMessage.safeParse(json);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === "ready") {
      this.attempt = 0;
      // Again, now that the session exists: a size sent while it was starting may have been missed.
      this.control({ type: "resize", ...this.options.sink.size() });
      this.setStatus({ state: "open" });
    } else if (message.type === "attached") {
      this.options.onAttached?.(message);
    } else if (message.type === "exit") {
      this.endSession();
    } else {
      this.setStatus({ ...this.status, problem: message.message });
    }
  }

  private endSession(): void {
    this.generation++;
    this.link?.close();
    this.link = null;
    this.options.sink.write(SESSION_ENDED);
    this.setStatus({ state: "closed" });
  }

  private onClose(code: number): void {
    this.link = null;
    this.options.onAttached?.(null);
    const refusal = accessRefusal(code);
    if (refusal && !refusal.retry) {
      reportAccessEnded(code);
      this.setStatus({ state: "revoked", problem: refusal.message, code });
      return;
    }
    const delay = reconnectDelay(this.attempt++);
    this.setStatus({ state: "reconnecting", problem: refusal?.message ?? this.status.problem });
    this.cancelRetry = this.schedule(() => {
      this.cancelRetry = null;
      this.connect();
    }, delay);
  }

  private control(message: TerminalClientMessage): void {
    this.link?.send(JSON.stringify(message));
  }

  private setStatus(status: TerminalStatus): void {
    this.status = status;
    this.options.onStatus(status);
  }
}
