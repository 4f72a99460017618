import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { type EventLoopLag, RECENT_WINDOW_MS } from "../event-loop/event-loop-lag";
import { json, plain } from "./http-answers";
import { setSecurityHeaders } from "./security-headers";

/** What a refused request or upgrade is told, with `Retry-After`. */
export const BUSY_MESSAGE = "The service is busy; try again in a few seconds.";
export const BUSY_RETRY_AFTER_SECONDS = 5;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Whether the service takes new work. While its own event loop ran late for `thresholdMs` of the
 * last RECENT_WINDOW_MS, each new connection would only lengthen the backlog everyone already
 * waits behind (issue 23: /healthz waited 49 s, and the loop stayed behind after the load ended),
 * so new requests and WebSocket upgrades are refused with 503 until it caught up (its recent lag
 * under half the threshold, so it does not flap); open connections and /healthz go on. Each late
 * turn counts up to half the threshold: one long task (a GC, a big diff) is over when it is
 * measured, a loop late again and again is behind. One log line says when it starts and one when
 * it stops. `thresholdMs` 0: never.
 */
export class BusyShedding {
  private shedding = false;
  /** While shedding: checks on its own too, so the line saying it stopped comes when it did. */
  private watch: NodeJS.Timeout | undefined;

  constructor(
    private readonly lag: EventLoopLag,
    private readonly thresholdMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether the service is shedding new work now (checked at each new request or upgrade). */
  busy(): boolean {
    if (this.thresholdMs === 0) return false;
    const recent = this.lag.recent(this.thresholdMs / 2);
    if (!this.shedding && recent >= this.thresholdMs) {
      this.shedding = true;
      this.watch = setInterval(() => this.busy(), 500).unref();
      this.log(
        `busy: the event loop ran late again and again, ${seconds(recent)} in the last ${seconds(RECENT_WINDOW_MS)}; new requests and sockets get 503 until it catches up`,
      );
    } else if (this.shedding && recent < this.thresholdMs / 2) {
      this.shedding = false;
      clearInterval(this.watch);
      this.log(
        `busy no more: the event loop caught up (${seconds(recent)} late); new requests and sockets are taken again`,
      );
    }
    return this.shedding;
  }

  /** Whether this new request or upgrade is refused: everything but /healthz while busy. */
  refuses(req: IncomingMessage): boolean {
    return !isHealthCheck(req) && this.busy();
  }
}

/**
 * Answers a refused request with 503 and `Retry-After`: a tRPC call in tRPC's error shape, so the
 * page shows the sentence (one error stands for every call of a batch); a browser opening a page, a
 * page that says so and reloads itself; anything else in plain words.
 */
export function answerBusy(req: IncomingMessage, res: ServerResponse): void {
  setSecurityHeaders(res);
  res.setHeader("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
  const code = "SERVICE_UNAVAILABLE";
  if (req.url?.startsWith("/api/trpc/")) {
    json(res, 503, {
      error: { message: BUSY_MESSAGE, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: 503 } },
    });
  } else if (opensAPage(req)) {
    res.writeHead(503, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(BUSY_PAGE);
  } else plain(res, 503, BUSY_MESSAGE);
}

/** A browser opening a page (not a script's call): it gets a page that tries again by itself. */
function opensAPage(req: IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD") && (req.headers.accept ?? "").includes("text/html");
}

/** What a browser opening a page is shown while the service is busy: it reloads after Retry-After. */
export const BUSY_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${BUSY_RETRY_AFTER_SECONDS}">
<title>Busy — coder</title></head>
<body><p>${BUSY_MESSAGE}</p><p>This page tries again by itself.</p></body></html>
`;

/** The health check answers while the service is busy, saying so. */
function isHealthCheck(req: IncomingMessage): boolean {
  return req.url === "/healthz" || req.url?.startsWith("/healthz?") === true;
}
