import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { browserResponseHeaders, upstreamRequestHeaders } from "./proxy-headers";

/**
 * Forwards a page request to the Next.js server. The browser only ever talks to this service, so
 * cookies, the Origin check and WebSockets share one origin. The upstream's scheme, host and port
 * come from the configuration alone; the request contributes only its (parsed, origin-form) path
 * and query, and only the headers the UI needs, without the session cookie.
 */
export function proxyToWeb(
  upstream: string,
  target: { pathname: string; search: string },
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const base = new URL(upstream);
  const upstreamReq = http.request(
    base,
    {
      method: req.method,
      // Overrides the base URL's path; the base's host and port stay as configured.
      path: `${target.pathname}${target.search}`,
      headers: upstreamRequestHeaders(req.headers, base.host),
    },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, browserResponseHeaders(upstreamRes.headers, base.origin));
      upstreamRes.pipe(res);
    },
  );
  upstreamReq.on("error", (err) => {
    if (!res.headersSent) {
      res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
      res.end(`the web UI is not reachable (${err.message}); is it still starting?`);
    } else {
      res.destroy();
    }
  });
  req.pipe(upstreamReq);
}
