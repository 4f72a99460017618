import type { ServerResponse } from "node:http";

/**
 * The Content-Security-Policy of every answer. Next.js's App Router inlines its bootstrap and RSC
 * payload as `<script>` elements; nonces would need a per-request Next proxy and would make every
 * prerendered page dynamic, so inline scripts are allowed while their sources stay this origin.
 * CodeMirror and xterm.js write inline styles. 'self' covers the same-origin WebSockets (/terminal,
 * /lsp) and the tRPC SSE stream. Frames show only the preview origins; being framed, plugins,
 * `<base>` and foreign form targets are refused.
 */
function contentSecurityPolicy(frameSources: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The preview pane frames the preview origins (preview/), and nothing else.
    ["frame-src 'self'", ...frameSources].join(" "),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Sent with every answer, the service's own and the proxied UI's; `frameSources` are the preview
 * origins' pattern. `same-origin` rather than `no-referrer`: under `no-referrer` a browser sends
 * `Origin: null` with same-origin POSTs, which the Origin check would refuse.
 */
export function securityHeaders(frameSources: readonly string[]): Readonly<Record<string, string>> {
  return {
    "content-security-policy": contentSecurityPolicy(frameSources),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };
}

/** The headers of an answer that frames nothing (a refused upgrade). */
export const SECURITY_HEADERS = securityHeaders([]);

export function setSecurityHeaders(res: ServerResponse, headers = SECURITY_HEADERS): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}
