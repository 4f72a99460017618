import { socketUrl } from "../../lib/sockets/socket-url";

/** The terminal's view of a WebSocket: small enough that tests can stand in for it. */

export interface SocketHandlers {
  open(): void;
  /** A text frame arrives as a string, a binary frame as an ArrayBuffer. */
  message(data: string | ArrayBuffer): void;
  close(code: number): void;
}

export interface SocketLink {
  send(data: string | Uint8Array): void;
  close(): void;
}

export type OpenSocket = (url: string, handlers: SocketHandlers) => SocketLink;

export const openBrowserSocket: OpenSocket = (url, handlers) => {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  ws.onopen = () => handlers.open();
  ws.onmessage = (event: MessageEvent<string | ArrayBuffer>) => handlers.message(event.data);
  ws.onclose = (event) => handlers.close(event.code);
  return {
    send: (data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(data);
    },
    close: () => {
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close(1000);
    },
  };
};

/** Where the service serves this kind of socket for a workspace. */
export function terminalUrl(
  location: Pick<Location, "protocol" | "host">,
  workspaceId: string,
  name: string,
): string {
  return socketUrl(location, "terminal", workspaceId, name);
}
