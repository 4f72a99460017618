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

/** The Cookie header without any `coder_` cookie. */
function appCookies(header: string): string | undefined {
  const kept = header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !isServiceCookie(part.split("=", 1)[0] ?? ""));
  return kept.length > 0 ? kept.join("; ") : undefined;
}

/**
 * The headers of a request as the app gets them: the browser's own (its Host included: the app
 * sees the origin the browser used), minus the hop-by-hop ones, every `coder_` cookie, and every
 * client-sent `X-Forwarded-*`/`Forwarded` (the app must not trust what a client claims about
 * itself). `upgrade` keeps `Connection: upgrade` and `Upgrade` (a WebSocket handshake).
 */
export function appRequestHeaders(browser: IncomingHttpHeaders, upgrade = false): OutgoingHttpHeaders {
  const named = new Set(
    String(browser.connection ?? "")
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== "" && !(upgrade && t === "upgrade")),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(browser)) {
    if (value === undefined || !forwardable(name) || named.has(name)) continue;
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

/**
 * A Set-Cookie of the app as the browser gets it: never one named `coder_` (the app cannot replace
 * the preview cookie), and host-only (its Domain attribute dropped), so a preview origin cannot
 * set cookies for its siblings or a parent domain.
 */
function hostOnlyAppCookie(line: string): string | undefined {
  const [pair, ...attributes] = line.split(";");
  if (!pair || isServiceCookie(pair.split("=", 1)[0] ?? "")) return undefined;
  const kept = attributes.filter((a) => a.split("=", 1)[0]?.trim().toLowerCase() !== "domain");
  return [pair, ...kept].join(";");
}

/** The headers of the app's answer: its own, minus the hop-by-hop ones, with its cookies confined (above). */
export function browserHeaders(app: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(app)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    if (name === "set-cookie") {
      const cookies = (Array.isArray(value) ? value : [value]).flatMap((c) => hostOnlyAppCookie(c) ?? []);
      if (cookies.length > 0) headers[name] = cookies;
      continue;
    }
    headers[name] = value;
  }
  return headers;
}
