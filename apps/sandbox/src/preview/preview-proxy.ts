import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ConnectionRegistry } from "../auth/connection-registry";
import type { PortStreams } from "../daemon/port-streams";
import { ServiceError } from "../errors/service-error";
import { parseRequestTarget, plainRequestTarget } from "../http/request-target";
import { AnswerError } from "./answer-parser";
import { exchange, requestFraming, requestHead } from "./app-exchange";
import { type AppTunnel, AppTunnels } from "./app-tunnels";
import { previewAnswer, previewRedirect, refuseUpgrade } from "./preview-answers";
import { PREVIEW_TOKEN_PARAM, previewCookie, readPreviewCookie } from "./preview-cookie";
import type { PreviewDecision, PreviewGate } from "./preview-gate";
import { appRequestHeaders } from "./preview-headers";
import type { PreviewTarget } from "./preview-host";
import type { PreviewOrigins } from "./preview-origins";
import type { PreviewSessions } from "./preview-sessions";
import type { PreviewSockets } from "./preview-sockets";
import type { PreviewTokens } from "./preview-tokens";

export interface PreviewProxyDeps {
  gate: PreviewGate;
  tokens: PreviewTokens;
  sessions: PreviewSessions;
  streams: PortStreams;
  origins: PreviewOrigins;
  /** Every live connection by principal: a logout or a revoked share ends the preview sockets too. */
  connections: ConnectionRegistry;
  sockets: PreviewSockets;
  log: (line: string) => void;
}

const NOT_ORIGIN_FORM = "the request must name a path";
const FORBIDDEN = "you may not open this preview: its owner keeps it to the people of the workspace";
const STALE_LINK = "this preview link was already used or has expired; open the preview again from the IDE";

/** Why a port gave no answer, for the person looking at the preview. */
function unreachable(target: PreviewTarget, error: unknown): string {
  if (error instanceof ServiceError) return `${error.message}.`;
  // The tunnel reached the port, then the app hung up before it answered (a crash, a dropped request).
  if (error instanceof AnswerError && error.closed)
    return `the app on port ${target.port} closed the connection without answering; see its output in the terminal.`;
  if (error instanceof AnswerError)
    return `the app on port ${target.port} answered with something that is not valid HTTP: ${error.message}.`;
  return `port ${target.port} of the workspace cannot be reached; is the workspace running?`;
}

/**
 * Serves the preview origins: each request and upgrade on `<port>-<workspace>.<domain>` passes the
 * gate, then goes to 127.0.0.1:<port> inside the workspace through a tunnel (PortStreams), with
 * keep-alive, streamed bodies both ways and backpressure. A `?coder_preview_token=` from
 * `preview.open` is exchanged for the origin's own cookie first. No IDE cookie, no client-sent
 * `X-Forwarded-*` reaches the app; nobody signed in is sent to the IDE's sign-in, never to the app.
 */
export class PreviewProxy {
  private readonly tunnels: AppTunnels;

  constructor(private readonly deps: PreviewProxyDeps) {
    this.tunnels = new AppTunnels(deps.streams);
  }

  async handle(req: IncomingMessage, res: ServerResponse, target: PreviewTarget): Promise<void> {
    // Most requests of a page: a plain path, no token, a decision for the same cookie still good.
    const plain = plainRequestTarget(req.url);
    if (plain !== undefined && !plain.includes(PREVIEW_TOKEN_PARAM))
      return this.pass(req, res, target, plain);
    const url = parseRequestTarget(req.url);
    if (!url) return previewAnswer(res, 400, NOT_ORIGIN_FORM);
    const token = url.searchParams.get(PREVIEW_TOKEN_PARAM);
    if (token !== null) return this.exchange(res, target, url, token);
    return this.pass(req, res, target, `${url.pathname}${url.search}`);
  }

  /** Past the gate to the app, or refused. */
  private async pass(
    req: IncomingMessage,
    res: ServerResponse,
    target: PreviewTarget,
    path: string,
  ): Promise<void> {
    const cookie = readPreviewCookie(req);
    const decision = this.deps.gate.known(cookie, target) ?? (await this.deps.gate.check(cookie, target));
    if (this.refused(res, decision)) return;
    this.forward(req, res, target, path);
  }

  /** The token of `preview.open` becomes this origin's cookie; the browser goes on to the path without it. */
  private async exchange(res: ServerResponse, target: PreviewTarget, url: URL, token: string): Promise<void> {
    const holder = await this.deps.tokens.take(token, target);
    if (!holder) return previewAnswer(res, 403, STALE_LINK);
    const principal = await this.deps.gate.principal(holder);
    const decision = await this.deps.gate.decide(principal, target);
    if (this.refused(res, decision)) return;
    const cookie = await this.deps.sessions.create(holder, target);
    url.searchParams.delete(PREVIEW_TOKEN_PARAM);
    previewRedirect(res, `${url.pathname}${url.search}`, previewCookie(cookie));
  }

  /** Answers a refusal (true) or lets the request through (false). */
  private refused(res: ServerResponse, decision: PreviewDecision): boolean {
    if (decision.kind === "allow") return false;
    if (decision.kind === "sign-in") previewRedirect(res, this.deps.origins.signIn());
    else previewAnswer(res, 403, FORBIDDEN);
    return true;
  }

  private async forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: PreviewTarget,
    path: string,
  ): Promise<void> {
    const framing = requestFraming(req);
    const head = requestHead(req.method ?? "GET", path, appRequestHeaders(req.headers), framing);
    for (let attempt = 0; ; attempt++) {
      let tunnel: AppTunnel;
      try {
        tunnel = await this.tunnels.acquire(target, attempt > 0);
      } catch (error) {
        return previewAnswer(res, 502, unreachable(target, error));
      }
      // The browser left while the request waited for a tunnel: nothing to ask the app.
      if (res.destroyed) return this.tunnels.release(target, tunnel, true);
      const reused = tunnel.reused;
      const end = await exchange(tunnel, req, res, head);
      this.tunnels.release(target, tunnel, end.kind === "answered" && end.reusable);
      if (end.kind !== "unanswered" || res.destroyed) return;
      // A kept-alive tunnel the app had closed meanwhile: once more on a new one, when no body was sent.
      if (reused && framing === "none" && attempt === 0) continue;
      return previewAnswer(res, 502, unreachable(target, end.error));
    }
  }

  /**
   * A WebSocket (a dev server's hot reload): after the gate (and only from a page of this very
   * origin), the handshake goes through a tunnel of its own and then the bytes flow both ways. It
   * is registered under its principal, so a logout, a revoked share or a suspension ends it, and
   * under its port, so a visibility change ends it.
   */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: PreviewTarget): Promise<void> {
    const url = parseRequestTarget(req.url);
    if (!url) return refuseUpgrade(socket, 400, "Bad Request", NOT_ORIGIN_FORM);
    if (!this.deps.origins.sameOrigin(req.headers.origin, req.headers.host)) {
      return refuseUpgrade(socket, 403, "Forbidden", "a preview's sockets open only from its own pages");
    }
    const decision = await this.deps.gate.check(readPreviewCookie(req), target);
    if (decision.kind === "sign-in")
      return refuseUpgrade(socket, 401, "Unauthorized", "sign in to the IDE first");
    if (decision.kind === "forbidden") return refuseUpgrade(socket, 403, "Forbidden", FORBIDDEN);
    let tunnel: Duplex;
    try {
      tunnel = await this.deps.streams.open(target.workspaceId, target.port);
    } catch (error) {
      return refuseUpgrade(socket, 502, "Bad Gateway", unreachable(target, error));
    }
    const end = () => {
      socket.destroy();
      tunnel.destroy();
    };
    const forgetPort = this.deps.sockets.add(target, end);
    const forgetPrincipal = decision.principal
      ? this.deps.connections.add(decision.principal, { end }, target.workspaceId)
      : () => undefined;
    const closed = () => {
      forgetPort();
      forgetPrincipal();
      end();
    };
    socket.once("close", closed);
    tunnel.once("close", closed);
    socket.on("error", () => undefined);
    tunnel.on("error", () => undefined);
    tunnel.write(
      requestHead(req.method ?? "GET", `${url.pathname}${url.search}`, appRequestHeaders(req.headers, true)),
    );
    if (head.length > 0) tunnel.write(head);
    socket.pipe(tunnel).pipe(socket);
  }

  /** Ends every preview connection (the service stops). */
  close(): void {
    this.tunnels.close();
    this.deps.sockets.endAll();
  }
}
