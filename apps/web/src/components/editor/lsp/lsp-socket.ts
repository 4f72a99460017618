import { socketUrl } from "../../../lib/sockets/socket-url";

/** The language connection's view of a WebSocket, small enough that tests can stand in for it. */
export interface LspSocketHandlers {
  open(): void;
  message(text: string): void;
  close(code: number, reason: string): void;
}

export interface LspSocket {
  send(text: string): void;
  close(): void;
}

export type OpenLspSocket = (url: string, handlers: LspSocketHandlers) => LspSocket;

export const openBrowserLspSocket: OpenLspSocket = (url, handlers) => {
  const ws = new WebSocket(url);
  ws.onopen = () => handlers.open();
  ws.onmessage = (event: MessageEvent) => {
    // One JSON-RPC message per text frame; the service never sends binary ones.
    if (typeof event.data === "string") handlers.message(event.data);
  };
  ws.onclose = (event) => handlers.close(event.code, event.reason);
  return {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    close: () => {
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close(1000);
    },
  };
};

/** Where the service serves this kind of socket for a workspace. */
export function lspUrl(
  location: Pick<Location, "protocol" | "host">,
  workspaceId: string,
  language: string,
): string {
  return socketUrl(location, "lsp", workspaceId, language);
}
