import { AccessCloseCode } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { TerminalConnection, type TerminalStatus } from "./terminal-connection";
import type { SocketHandlers } from "./terminal-socket";

/** A scripted stand-in for the service's end of the socket. */
class FakeSocket {
  sent: (string | Uint8Array)[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly handlers: SocketHandlers,
  ) {}
  control(): unknown[] {
    return this.sent.filter((d): d is string => typeof d === "string").map((d) => JSON.parse(d));
  }
  input(): string[] {
    return this.sent
      .filter((d): d is Uint8Array => typeof d !== "string")
      .map((d) => new TextDecoder().decode(d));
  }
  serverSends(message: object): void {
    this.handlers.message(JSON.stringify(message));
  }
  output(text: string): void {
    this.handlers.message(new TextEncoder().encode(text).buffer as ArrayBuffer);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const statuses: TerminalStatus[] = [];
  const written: { data: Uint8Array | string; done?: () => void }[] = [];
  const scheduled: { task: () => void; ms: number; cancelled: boolean }[] = [];
  const connection = new TerminalConnection({
    url: "ws://host/terminal/ws1/main",
    sink: { write: (data, done) => written.push({ data, done }), size: () => ({ cols: 120, rows: 30 }) },
    onStatus: (status) => statuses.push(status),
    openSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return {
        send: (data) => socket.sent.push(data),
        close: () => {
          socket.closed = true;
        },
      };
    },
    schedule: (task, ms) => {
      const entry = { task, ms, cancelled: false };
      scheduled.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
  });
  const socket = (i: number) => {
    const s = sockets[i];
    if (!s) throw new Error(`no socket ${i}`);
    return s;
  };
  const state = () => statuses.at(-1)?.state;
  return { connection, sockets, socket, statuses, state, written, scheduled };
}

describe("TerminalConnection", () => {
  it("tells the service the terminal size as soon as the socket opens", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.open();
    expect(t.socket(0).url).toBe("ws://host/terminal/ws1/main");
    expect(t.socket(0).control()).toEqual([{ type: "resize", cols: 120, rows: 30 }]);
  });

  it("repeats the size once the session is ready, so tmux draws for the real terminal", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.open();
    t.socket(0).serverSends({ type: "ready" });
    expect(t.socket(0).control()).toEqual([
      { type: "resize", cols: 120, rows: 30 },
      { type: "resize", cols: 120, rows: 30 },
    ]);
  });

  it("is open once the service says the session is ready, and shows its output", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.open();
    t.socket(0).serverSends({ type: "ready" });
    expect(t.state()).toBe("open");
    t.socket(0).output("$ ");
    expect(new TextDecoder().decode(t.written[0]?.data as Uint8Array)).toBe("$ ");
  });

  it("sends keystrokes as UTF-8 bytes in binary frames", () => {
    const t = setup();
    t.connection.connect();
    t.connection.sendInput("ls é\r");
    expect(t.socket(0).input()).toEqual(["ls é\r"]);
    t.connection.sendBinary("\x1b[M\xff");
    expect(Array.from(t.socket(0).sent.at(-1) as Uint8Array)).toEqual([0x1b, 0x5b, 0x4d, 0xff]);
  });

  it("acks output only after the terminal has processed enough of it", () => {
    const t = setup();
    t.connection.connect();
    const chunk = "x".repeat(40 * 1024);
    t.socket(0).output(chunk);
    t.socket(0).output(chunk);
    expect(t.socket(0).control()).toEqual([]);
    t.written[0]?.done?.();
    expect(t.socket(0).control()).toEqual([]);
    t.written[1]?.done?.();
    expect(t.socket(0).control()).toEqual([{ type: "ack", bytes: 80 * 1024 }]);
  });

  it("forwards resizes from the page", () => {
    const t = setup();
    t.connection.connect();
    t.connection.resize(100, 40);
    expect(t.socket(0).control()).toEqual([{ type: "resize", cols: 100, rows: 40 }]);
  });

  it("reconnects with growing delays when the socket drops, and resets the delay once attached", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.close(1006);
    expect(t.state()).toBe("reconnecting");
    expect(t.scheduled.map((s) => s.ms)).toEqual([500]);
    t.scheduled[0]?.task();
    expect(t.sockets).toHaveLength(2);
    t.socket(1).handlers.close(1006);
    expect(t.scheduled.map((s) => s.ms)).toEqual([500, 1000]);
    t.scheduled[1]?.task();
    t.socket(2).serverSends({ type: "ready" });
    expect(t.state()).toBe("open");
    t.socket(2).handlers.close(1006);
    expect(t.scheduled.at(-1)?.ms).toBe(500);
  });

  it("does not ack on a new socket for output received by the old one", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).output("x".repeat(64 * 1024));
    t.socket(0).handlers.close(1006);
    t.scheduled[0]?.task();
    t.written[0]?.done?.();
    expect(t.socket(1).control()).toEqual([]);
  });

  it("keeps the service's reason while it retries", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).serverSends({ type: "error", message: "cannot open the terminal: workspace is stopped" });
    t.socket(0).handlers.close(1011);
    expect(t.statuses.at(-1)).toEqual({
      state: "reconnecting",
      problem: "cannot open the terminal: workspace is stopped",
    });
  });

  it("stops when the shell exits and starts a new session on the next key", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).serverSends({ type: "ready" });
    t.socket(0).serverSends({ type: "exit", code: null });
    expect(t.state()).toBe("closed");
    expect(t.socket(0).closed).toBe(true);
    expect(String(t.written.at(-1)?.data)).toContain("session ended");
    t.socket(0).handlers.close(1000);
    expect(t.scheduled).toHaveLength(0);

    t.connection.sendInput("a");
    expect(t.state()).toBe("connecting");
    expect(t.sockets).toHaveLength(2);
    expect(t.socket(1).input()).toEqual([]);
  });

  it("says the person was logged out, and stops reconnecting, when the service ends the login", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).serverSends({ type: "ready" });
    t.socket(0).handlers.close(AccessCloseCode.LoggedOut);
    expect(t.statuses.at(-1)).toEqual({
      state: "revoked",
      problem: "You were logged out.",
      code: AccessCloseCode.LoggedOut,
    });
    expect(t.scheduled).toHaveLength(0);
    t.connection.sendInput("a");
    expect(t.sockets).toHaveLength(1);
  });

  it("says why and stops when the service refuses the terminal, but waits for a workspace that is starting", () => {
    for (const code of [AccessCloseCode.Forbidden, AccessCloseCode.NoWorkspace]) {
      const t = setup();
      t.connection.connect();
      t.socket(0).handlers.close(code);
      expect(t.statuses.at(-1)?.state).toBe("revoked");
      expect(t.scheduled).toHaveLength(0);
    }
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.close(AccessCloseCode.NotRunning);
    expect(t.statuses.at(-1)).toEqual({ state: "reconnecting", problem: "The workspace is not running." });
    expect(t.scheduled).toHaveLength(1);
  });

  it("ignores control frames it cannot read", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.message("not json");
    t.socket(0).serverSends({ type: "mystery" });
    expect(t.statuses).toEqual([]);
  });

  it("closes the socket and never reconnects once disposed", () => {
    const t = setup();
    t.connection.connect();
    t.socket(0).handlers.close(1006);
    t.connection.dispose();
    expect(t.scheduled[0]?.cancelled).toBe(true);

    const u = setup();
    u.connection.connect();
    u.connection.dispose();
    expect(u.socket(0).closed).toBe(true);
    u.socket(0).handlers.close(1000);
    expect(u.scheduled).toHaveLength(0);
  });
});
