import type { ServerResponse } from "node:http";

/**
 * The Content-Security-Policy of every answer. Next.js's App Router inlines its bootstrap and RSC
 * payload as `<script>` elements; nonces would need a per-request Next proxy and would make every
 * prerendered page dynamic, so inline scripts are allowed while their sources stay this origin.
 * CodeMirror and xterm.js write inline styles. 'self' covers the same-origin WebSockets (/terminal,
 * /lsp) and the tRPC SSE stream. Framing, plugins, `<base>` and foreign form targets are refused.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Sent with every answer, the service's own and the proxied UI's. `same-origin` rather than
 * `no-referrer`: under `no-referrer` a browser sends `Origin: null` with same-origin POSTs, which
 * the Origin check would refuse.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}
