import type { IncomingMessage } from "node:http";

export const SESSION_COOKIE = "coder_session";

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const attrs = [
    `${SESSION_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (secure) attrs.push("Secure");
  return attrs.join("; ");
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * A browser request is same-origin when its Origin header equals the origin the request was
 * addressed to (scheme + Host) or one the operator allowed. WebSocket upgrades and state-changing
 * requests must pass this, so another site cannot ride on the owner's cookie.
 */
export function originAllowed(req: IncomingMessage, allowed: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  const host = req.headers.host;
  const proto = (req.headers["x-forwarded-proto"] as string | undefined) ?? "http";
  if (
    host &&
    (origin === `${proto}://${host}` || origin === `http://${host}` || origin === `https://${host}`)
  ) {
    return true;
  }
  return allowed.includes(origin);
}
