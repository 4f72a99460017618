import type WebSocket from "ws";

/** Resolves with what ends first: the close code `on` reports, or null once `ms` have passed. */
export function closeWithin(on: (close: (code: number) => void) => void, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    on((code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** `closeWithin`'s source for a WebSocket: its close code. */
export const wsClose = (ws: WebSocket) => (close: (code: number) => void) =>
  ws.once("close", (code) => close(code));
