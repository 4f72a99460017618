import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

/**
 * What the service itself answers on a preview origin (refusals, a port nobody listens on): plain
 * text that no browser runs or sniffs, never cached, framed by nobody but the IDE.
 */
const OWN_HEADERS = {
  "content-type": "text/plain; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'",
} as const;

export function previewAnswer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, OWN_HEADERS).end(`${text}\n`);
}

/** A redirect of the service's own (the token exchange, the sign-in). */
export function previewRedirect(res: ServerResponse, location: string, setCookie?: string): void {
  res
    .writeHead(302, {
      location,
      "cache-control": "no-store",
      ...(setCookie ? { "set-cookie": setCookie } : {}),
    })
    .end();
}

/** Refuses an upgrade before it becomes a WebSocket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, text: string): void {
  const body = Buffer.from(`${text}\n`);
  const headers = Object.entries(OWN_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${headers.join("")}Content-Length: ${body.length}\r\n\r\n${body}`,
  );
}
