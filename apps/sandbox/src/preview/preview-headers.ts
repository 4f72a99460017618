import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";

/** Headers about one hop, never forwarded (RFC 9110 §7.6.1), besides those `Connection` names. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The service's own cookies: the preview cookie, the IDE's session (never sent here, but never forwarded either). */
const isServiceCookie = (name: string) => name.trim().toLowerCase().startsWith("coder_");

/** Whether a request header may go to the app: no client-sent `X-Forwarded-*` or `Forwarded`. */
function forwardable(name: string): boolean {
  return !name.startsWith("x-forwarded-") && name !== "forwarded";
}

/** Whether a header may hold a `coder_` cookie at all (most hold none: they pass as they are). */
const MENTIONS_SERVICE_COOKIE = /coder_/i;

/** The Cookie header without any `coder_` cookie. */
function appCookies(header: string): string | undefined {
  if (!MENTIONS_SERVICE_COOKIE.test(header)) return header;
  const kept = header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !isServiceCookie(part.split("=", 1)[0] ?? ""));
  return kept.length > 0 ? kept.join("; ") : undefined;
}

/** The header names a `Connection` header lists (hop-by-hop for this request), lowercased. */
function connectionNamed(connection: string | string[] | undefined, upgrade: boolean): string[] {
  if (connection === undefined) return [];
  return String(connection)
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== "" && !(upgrade && t === "upgrade"));
}

/**
 * The headers of a request as the app gets them: the browser's own (its Host included: the app
 * sees the origin the browser used), minus the hop-by-hop ones, every `coder_` cookie, and every
 * client-sent `X-Forwarded-*`/`Forwarded` (the app must not trust what a client claims about
 * itself). `upgrade` keeps `Connection: upgrade` and `Upgrade` (a WebSocket handshake). On every
 * request of a preview: one pass, no copies beyond the result.
 */
export function appRequestHeaders(browser: IncomingHttpHeaders, upgrade = false): IncomingHttpHeaders {
  const named = connectionNamed(browser.connection, upgrade);
  const headers: IncomingHttpHeaders = {};
  for (const name in browser) {
    const value = browser[name];
    if (value === undefined || !forwardable(name) || named.includes(name)) continue;
    if (HOP_BY_HOP.has(name) && !(upgrade && (name === "connection" || name === "upgrade"))) continue;
    if (name === "cookie") {
      const cookie = appCookies(String(value));
      if (cookie) headers.cookie = cookie;
      continue;
    }
    headers[name] = value;
  }
  if (upgrade) headers.connection = "Upgrade";
  return headers;
}

/** Whether a Set-Cookie's attributes may name a Domain (most do not: they pass as they are). */
const MENTIONS_DOMAIN = /domain/i;

/**
 * A Set-Cookie of the app as the browser gets it: never one named `coder_` (the app cannot replace
 * the preview cookie), and host-only (its Domain attribute dropped), so a preview origin cannot
 * set cookies for its siblings or a parent domain.
 */
function hostOnlyAppCookie(line: string): string | undefined {
  const end = line.indexOf(";");
  const pair = end < 0 ? line : line.slice(0, end);
  if (!pair || isServiceCookie(pair.split("=", 1)[0] ?? "")) return undefined;
  if (end < 0 || !MENTIONS_DOMAIN.test(line.slice(end))) return line;
  const kept = line
    .slice(end + 1)
    .split(";")
    .filter((a) => a.split("=", 1)[0]?.trim().toLowerCase() !== "domain");
  return [pair, ...kept].join(";");
}

/**
 * The headers of the app's answer, from its raw pairs (`[name, value, name, value, …]`: node's
 * `rawHeaders`, read without building the merged headers object): its own, minus the hop-by-hop ones, with its cookies confined (above). A
 * header the app sent twice goes twice; the names are lowercased.
 */
export function browserHeaders(raw: readonly (Buffer | string)[]): OutgoingHttpHeaders {
  // No prototype: a header named `__proto__` is just a header.
  const headers: OutgoingHttpHeaders = Object.create(null);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = latin1(raw[i] as Buffer | string).toLowerCase();
    if (HOP_BY_HOP.has(name)) continue;
    let value: string | undefined = latin1(raw[i + 1] as Buffer | string);
    if (name === "set-cookie") value = hostOnlyAppCookie(value);
    if (value === undefined) continue;
    const known = headers[name];
    if (known !== undefined && ONCE.has(name)) continue;
    if (known === undefined) headers[name] = name === "set-cookie" ? [value] : value;
    else if (Array.isArray(known)) known.push(value);
    else headers[name] = [String(known), value];
  }
  return headers;
}

/** Headers a browser reads once: a repeat is dropped (the first kept), as node's own merge does. */
const ONCE = new Set(["content-length", "content-type", "location", "content-disposition"]);

/** A header's bytes as node writes them back (latin1: every byte the app sent, unchanged). */
const latin1 = (field: Buffer | string) => (typeof field === "string" ? field : field.toString("latin1"));
