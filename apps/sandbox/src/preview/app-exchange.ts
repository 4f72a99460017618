import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AppTunnel } from "./app-tunnels";
import { browserHeaders } from "./preview-headers";

/** How one request's exchange with the app ended. */
export type ExchangeEnd =
  | { kind: "answered"; reusable: boolean }
  /** Nothing reached the browser: the proxy may answer for the app (or try again). */
  | { kind: "unanswered"; error: Error }
  /** The answer was under way, or the browser left: the browser's answer is cut. */
  | { kind: "cut" };

/**
 * How a browser request's body goes to the app: none, as it is (Content-Length, which the header
 * filter keeps), or chunked again (node has taken its Transfer-Encoding off, and the filter drops it).
 */
export type RequestFraming = "none" | "sized" | "chunked";

export function requestFraming(req: IncomingMessage): RequestFraming {
  if (req.headers["content-length"] !== undefined) return "sized";
  return req.headers["transfer-encoding"] !== undefined ? "chunked" : "none";
}

/** A request's head as the app gets it, ending with the blank line; `chunked` says so in it. */
export function requestHead(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  framing: RequestFraming = "none",
): string {
  let head = `${method} ${path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${String(v)}\r\n`;
  }
  if (framing === "chunked") head += "transfer-encoding: chunked\r\n";
  return `${head}\r\n`;
}

/**
 * Sends the browser's request (`head`, made with `requestFraming(req)`, then its body as it
 * arrives, with backpressure) over `tunnel` and passes the app's answer back through `res`: the
 * head through the browser header filter, the body as it comes, held back while the browser reads
 * slower than the app writes.
 */
export function exchange(
  tunnel: AppTunnel,
  req: IncomingMessage,
  res: ServerResponse,
  head: string,
): Promise<ExchangeEnd> {
  return new Promise((resolve) => {
    const stream = tunnel.stream;
    let answered = false;
    let settled = false;
    const settle = (end: ExchangeEnd) => {
      if (settled) return;
      settled = true;
      tunnel.listener = undefined;
      tunnel.onLost = undefined;
      req.off("data", send);
      res.off("close", left);
      resolve(end);
    };
    tunnel.listener = {
      head: ({ status, reason, rawHeaders }) => {
        const headers = browserHeaders(rawHeaders);
        // Throws on a status or header node would not send: the tunnel is then lost, unanswered.
        if (reason) res.writeHead(status, reason, headers);
        else res.writeHead(status, headers);
        answered = true;
      },
      body: (chunk) => {
        if (res.write(chunk)) return;
        stream.pause();
        res.once("drain", () => stream.resume());
      },
      end: (reusable) => {
        res.end();
        // An app may answer before the whole request body went (a refusal): the rest never goes,
        // so the tunnel cannot carry another request.
        settle({ kind: "answered", reusable: reusable && sent });
      },
    };
    tunnel.onLost = (error) => {
      if (!answered) return settle({ kind: "unanswered", error });
      res.destroy();
      settle({ kind: "cut" });
    };
    // The browser went away before the whole answer: the tunnel cannot be reused half-read.
    const left = () => {
      stream.destroy();
      settle({ kind: "cut" });
    };
    res.once("close", left);

    const framing = requestFraming(req);
    const chunked = framing === "chunked";
    let sent = framing === "none";
    const send = (chunk: Buffer) => {
      if (chunk.length === 0) return;
      const framed = chunked
        ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, CRLF])
        : chunk;
      if (stream.write(framed)) return;
      req.pause();
      stream.once("drain", () => req.resume());
    };
    tunnel.parser.expect(req.method ?? "GET");
    stream.write(head);
    if (sent) {
      req.resume();
      return;
    }
    req.on("data", send);
    req.once("end", () => {
      if (settled) return;
      if (chunked) stream.write(LAST_CHUNK);
      sent = true;
    });
    req.once("close", () => {
      if (!req.complete) stream.destroy();
    });
  });
}

const CRLF = Buffer.from("\r\n");
const LAST_CHUNK = Buffer.from("0\r\n\r\n");
