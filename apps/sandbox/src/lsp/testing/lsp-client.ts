// Test and bench support: an editor-side client of the LSP WebSocket, one JSON-RPC message per frame.
import WebSocket from "ws";

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface LspSocketClient {
  ws: WebSocket;
  /** Sends a request and resolves with its response (notifications and server requests are skipped). */
  request(method: string, params?: unknown): Promise<JsonRpcResponse>;
  notify(method: string, params?: unknown): void;
  /** Notifications received so far. */
  notifications: { method: string; params: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
}

/** What the client answers a request from the server with (a minimal editor answers null). */
export type ServerRequestAnswer = (method: string, params: unknown) => unknown;

export async function connectLsp(
  url: string,
  headers: Record<string, string> = {},
  answer: ServerRequestAnswer = () => null,
): Promise<LspSocketClient> {
  const ws = new WebSocket(url, { headers });
  const pending = new Map<number, (response: JsonRpcResponse) => void>();
  const notifications: { method: string; params: unknown }[] = [];
  let nextId = 1;
  const send = (message: object) => ws.send(JSON.stringify({ jsonrpc: "2.0", ...message }));

  ws.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown };
    if (message.method !== undefined && message.id !== undefined) {
      // A request from the server (configuration, registrations).
      send({ id: message.id, result: answer(message.method, message.params) });
    } else if (message.method !== undefined) {
      notifications.push({ method: message.method, params: message.params });
    } else if (message.id !== undefined) {
      pending.get(message.id)?.(message as JsonRpcResponse);
      pending.delete(message.id);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return {
    ws,
    notifications,
    closed,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, resolve);
        void closed.then(({ code, reason }) =>
          reject(new Error(`socket closed (${code} ${reason}) before ${method} answered`)),
        );
        send({ id, method, ...(params === undefined ? {} : { params }) });
      });
    },
    notify(method, params) {
      send({ method, ...(params === undefined ? {} : { params }) });
    },
  };
}
