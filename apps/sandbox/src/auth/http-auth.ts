import type { IncomingMessage } from "node:http";
import { parseCookie, stringifySetCookie } from "cookie";

export const SESSION_COOKIE = "coder_session";

/** A cookie of the request; a malformed header or value never throws (it is the caller's input). */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[name] : undefined;
}

const SESSION_ATTRIBUTES = { path: "/", httpOnly: true, sameSite: "lax" } as const;

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return stringifySetCookie(SESSION_COOKIE, value, { ...SESSION_ATTRIBUTES, maxAge: maxAgeSeconds, secure });
}

export function clearedSessionCookie(): string {
  return stringifySetCookie(SESSION_COOKIE, "", { ...SESSION_ATTRIBUTES, maxAge: 0 });
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
