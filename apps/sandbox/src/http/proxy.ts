import http, { type IncomingMessage, type ServerResponse } from "node:http";

/**
 * Forwards a page request to the Next.js server. The browser only ever talks to this service, so
 * cookies, the Origin check and WebSockets share one origin.
 */
export function proxyToWeb(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url ?? "/", upstream);
  const headers = { ...req.headers, host: target.host, "x-forwarded-host": req.headers.host ?? "" };
  const upstreamReq = http.request(target, { method: req.method, headers }, (upstreamRes) => {
    res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
    upstreamRes.pipe(res);
  });
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
