import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { SESSION_COOKIE } from "../auth/http-auth";
import { parseRequestTarget } from "./request-target";

/**
 * What the Next.js UI gets from the browser's request: content negotiation, caching, ranges, and
 * the App Router's own headers (RSC payloads, prefetches, server actions). Nothing else reaches it.
 */
const REQUEST_HEADERS: readonly string[] = [
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-length",
  "content-type",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-range",
  "origin",
  "range",
  "user-agent",
  "rsc",
  "next-action",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-router-state-tree",
  "next-url",
];

/** What the browser gets from the UI's answer; `location` is checked on its own. */
const RESPONSE_HEADERS = new Set([
  "accept-ranges",
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "content-length",
  "content-range",
  "content-type",
  "etag",
  "expires",
  "last-modified",
  "link",
  "retry-after",
  "vary",
  "x-action-redirect",
  "x-action-revalidated",
]);
/** The App Router's response headers (stale time, prerender, rewritten path, ...). */
const RESPONSE_HEADER_PREFIX = "x-nextjs-";

/** The Cookie header without the session cookie: the UI never needs it, so it never sees it. */
function cookiesWithoutSession(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part.split("=", 1)[0]?.trim() !== SESSION_COOKIE);
  return kept.length > 0 ? kept.join("; ") : undefined;
}

/**
 * The headers of the request to the UI: the allow-list above, the session cookie taken out, `Host`
 * set to the upstream, and the browser's (already checked) host as `X-Forwarded-Host`.
 */
export function upstreamRequestHeaders(
  browser: IncomingHttpHeaders,
  upstreamHost: string,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { host: upstreamHost };
  for (const name of REQUEST_HEADERS) {
    const value = browser[name];
    if (value !== undefined) headers[name] = value;
  }
  const cookie = cookiesWithoutSession(browser.cookie);
  if (cookie) headers.cookie = cookie;
  if (browser.host) headers["x-forwarded-host"] = browser.host;
  return headers;
}

/**
 * A redirect stays on this origin: a path, or an absolute URL of the upstream itself (rewritten to
 * its path). Anything else is dropped.
 */
function sameOriginLocation(location: string, upstreamOrigin: string): string | undefined {
  if (parseRequestTarget(location)) return location;
  try {
    const url = new URL(location);
    if (url.origin === upstreamOrigin) return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    // not a URL at all
  }
  return undefined;
}

/** The headers of the UI's answer that the browser may see (no Set-Cookie, no Service-Worker-Allowed, ...). */
export function browserResponseHeaders(
  upstream: IncomingHttpHeaders,
  upstreamOrigin: string,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined) continue;
    if (RESPONSE_HEADERS.has(name) || name.startsWith(RESPONSE_HEADER_PREFIX)) headers[name] = value;
  }
  const location = upstream.location && sameOriginLocation(upstream.location, upstreamOrigin);
  if (location) headers.location = location;
  return headers;
}
