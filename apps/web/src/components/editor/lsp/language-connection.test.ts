import { EditorState } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { AccessCloseCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EditorHost } from "./editor-host";
import { type ConnectionStatus, LanguageConnection } from "./language-connection";
import type { LspSocketHandlers, OpenLspSocket } from "./lsp-socket";

interface FakeSocket {
  handlers: LspSocketHandlers;
  sent: { method?: string; id?: number; params?: unknown }[];
  closed: boolean;
}

function setUp() {
  const sockets: FakeSocket[] = [];
  const openSocket: OpenLspSocket = (_url, handlers) => {
    const socket: FakeSocket = { handlers, sent: [], closed: false };
    sockets.push(socket);
    return {
      send: (text) => socket.sent.push(JSON.parse(text)),
      close: () => {
        socket.closed = true;
      },
    };
  };
  const states = new Map([["main.py", EditorState.create({ doc: "print(1)\n" })]]);
  const host: EditorHost = {
    stateOf: (path) => states.get(path),
    viewOf: () => null,
    reveal: async () => null,
    transact: () => undefined,
  };
  const statuses: ConnectionStatus[] = [];
  const connection = new LanguageConnection({
    language: "python",
    url: "ws://test/lsp/w/python",
    install: "pip install python-lsp-server",
    host,
    openSocket,
    client: {},
    onStatus: (status) => statuses.push(status),
  });
  /** The socket opens and the server answers `initialize`. */
  const serverStarts = async (socket: FakeSocket) => {
    socket.handlers.open();
    const init = socket.sent.find((m) => m.method === "initialize");
    socket.handlers.message(JSON.stringify({ jsonrpc: "2.0", id: init?.id, result: { capabilities: {} } }));
    await vi.advanceTimersByTimeAsync(0);
  };
  const opened = (socket: FakeSocket) =>
    socket.sent
      .filter((m) => m.method === "textDocument/didOpen")
      .map((m) => (m.params as { textDocument: { text: string } }).textDocument.text);
  return { sockets, states, connection, statuses, serverStarts, opened };
}

const state = (statuses: ConnectionStatus[]) => statuses.at(-1)?.state;

describe("LanguageConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens the tab's file once the server is initialised", async () => {
    const { sockets, connection, statuses, serverStarts, opened } = setUp();
    expect(state(statuses)).toBe("connecting");
    const view = { state: EditorState.create({ doc: "print(1)\n" }) } as unknown as EditorView;
    connection.workspace.openFile("file:///workspace/main.py", "python", view);
    const socket = sockets[0] as FakeSocket;
    await serverStarts(socket);
    expect(state(statuses)).toBe("ready");
    expect(socket.sent.map((m) => m.method)).toEqual(["initialize", "initialized", "textDocument/didOpen"]);
    expect(opened(socket)).toEqual(["print(1)\n"]);
  });

  it("reconnects after the server crashes and opens the files again with their current text", async () => {
    const { sockets, states, connection, statuses, serverStarts, opened } = setUp();
    const view = { state: EditorState.create({ doc: "print(1)\n" }) } as unknown as EditorView;
    connection.workspace.openFile("file:///workspace/main.py", "python", view);
    await serverStarts(sockets[0] as FakeSocket);

    sockets[0]?.handlers.close(1011, "pylsp exited (1): Traceback");
    expect(statuses.at(-1)).toMatchObject({ state: "reconnecting", detail: "pylsp exited (1): Traceback" });
    states.set("main.py", EditorState.create({ doc: "print(2)\n" }));
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);

    await serverStarts(sockets[1] as FakeSocket);
    expect(state(statuses)).toBe("ready");
    expect(opened(sockets[1] as FakeSocket)).toEqual(["print(2)\n"]);
  });

  it("waits longer after each failure in a row", async () => {
    const { sockets } = setUp();
    sockets[0]?.handlers.close(1006, "");
    await vi.advanceTimersByTimeAsync(1000);
    sockets[1]?.handlers.close(1006, "");
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
  });

  it("says how to install a missing server and tries again only when asked", async () => {
    const { sockets, connection, statuses } = setUp();
    sockets[0]?.handlers.close(1011, "pylsp not installed, run: pip install python-lsp-server");
    expect(statuses.at(-1)).toEqual({
      language: "python",
      state: "missing",
      detail: "pip install python-lsp-server",
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    connection.retry();
    expect(sockets).toHaveLength(2);
    expect(state(statuses)).toBe("connecting");
  });

  it("says the person was logged out and does not reconnect when the service ends the login", async () => {
    const { sockets, statuses, serverStarts } = setUp();
    const first = sockets[0];
    if (!first) throw new Error("no socket");
    await serverStarts(first);
    first.handlers.close(AccessCloseCode.LoggedOut, "You were logged out.");
    expect(statuses.at(-1)).toEqual({ language: "python", state: "revoked", detail: "You were logged out." });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it("reconnects when the server refuses to initialise", async () => {
    const { sockets, statuses } = setUp();
    const socket = sockets[0] as FakeSocket;
    socket.handlers.open();
    const init = socket.sent.find((m) => m.method === "initialize");
    socket.handlers.message(
      JSON.stringify({ jsonrpc: "2.0", id: init?.id, error: { code: -1, message: "bad" } }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(socket.closed).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: "reconnecting", detail: "initialize failed: bad" });
  });

  it("closes the socket and stops retrying when disposed", async () => {
    const { sockets, connection } = setUp();
    sockets[0]?.handlers.close(1006, "");
    connection.dispose();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });
});
